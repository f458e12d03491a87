#include "layoutcheck/probe/decoder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace layoutcheck {
namespace {

// bf16 keeps 8 significant bits: each of the two outputs a delta is taken from is off by up to
// half an ulp, 2^-8 relative.
constexpr double kBf16Rounding = 1.0 / 256;
// fp32 state: a few ulps of the state's scale.
constexpr double kFp32Rounding = 1.0 / (1 << 21);
// A second candidate within this many tolerances makes a match ambiguous.
constexpr double kSeparation = 2.0;

double norm(std::span<const double> values) {
  double square = 0;
  for (double value : values) square += value * value;
  return std::sqrt(square);
}

bool contains(const std::vector<std::int64_t>& values, std::int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

ProbeDecoder::ProbeDecoder(const ResponsePredictor& predictor, const GdnShape& shape,
                           double tolerance, std::vector<bf16_bits> base_out,
                           const Contract& state_layout, float hot)
    : predictor_(predictor),
      shape_(shape),
      tolerance_(tolerance),
      base_out_(std::move(base_out)),
      state_element_at_(static_cast<std::size_t>(state_layout.row_size), -1),
      hot_bits_(float_to_bf16(hot)) {
  state_layout.find_field("S")->for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    state_element_at_[static_cast<std::size_t>(offset)] = linear;
  });
}

ElementRef ProbeDecoder::element(const char* field, std::int64_t linear) const {
  const Contract& layout = predictor_.probed_layout();
  return {static_cast<std::size_t>(layout.find_field(field) - layout.fields.data()), linear};
}

std::string ProbeDecoder::describe(std::int64_t lane, const LaneHypothesis& hypothesis) const {
  std::string text;
  for (const ElementRef& e : hypothesis.elements)
    text += (text.empty() ? "" : "+") + predictor_.probed_layout().element_name(e);
  return text + " (value head " + std::to_string(lane) + ", key head " +
         std::to_string(hypothesis.key_head) + ")";
}

double ProbeDecoder::score(std::int64_t lane, const LaneHypothesis& hypothesis,
                           const RowResponse& response) const {
  const std::int64_t V = shape_.V;
  const LanePrediction prediction = predictor_.predict(lane, hypothesis);
  double difference = 0, observed = 0, base = 0;
  for (std::int64_t v = 0; v < V; ++v) {
    const double seen =
        response.out_delta.empty() ? 0.0 : response.out_delta[static_cast<std::size_t>(lane * V + v)];
    const double base_value = bf16_to_float(base_out_[static_cast<std::size_t>(lane * V + v)]);
    difference += (seen - prediction.out_delta[v]) * (seen - prediction.out_delta[v]);
    observed += seen * seen;
    base += base_value * base_value;
  }
  difference = std::sqrt(difference);
  observed = std::sqrt(observed);
  const double out_noise = kBf16Rounding * (2 * std::sqrt(base) + observed) + 1e-30;
  const double out_score =
      difference / (tolerance_ * std::max(observed, norm(prediction.out_delta)) + out_noise);

  double seen_state = 0;
  for (std::size_t i = 0; i < response.state_lanes.size(); ++i)
    if (response.state_lanes[i] == lane) seen_state = response.state_lane_norms[i];
  const double state_noise =
      kFp32Rounding * predictor_.base_state_norm(lane, hypothesis.key_head) + 1e-30;
  const double state_score = std::abs(seen_state - prediction.state_norm) /
                             (tolerance_ * std::max(seen_state, prediction.state_norm) + state_noise);
  const double result = std::max(out_score, state_score);
  return std::isnan(result) ? INFINITY : result;
}

std::int64_t ProbeDecoder::residual_peak(std::int64_t lane, const LaneHypothesis& hypothesis,
                                         const RowResponse& response) const {
  const LanePrediction prediction = predictor_.predict(lane, hypothesis);
  std::int64_t peak = 0;
  double largest = -1;
  for (std::int64_t v = 0; v < shape_.V; ++v) {
    const double seen =
        response.out_delta.empty() ? 0.0 : response.out_delta[static_cast<std::size_t>(lane * shape_.V + v)];
    const double residual = std::abs(seen - prediction.out_delta[v]);
    if (residual > largest) {
      largest = residual;
      peak = v;
    }
  }
  return peak;
}

std::vector<LaneHypothesis> ProbeDecoder::candidates(std::int64_t lane, const RowResponse& response,
                                                     const std::vector<ElementRef>& conv_elements,
                                                     bool& named_by_structure) const {
  const std::int64_t K = shape_.K, V = shape_.V, key_head = standard_key_head(lane);
  const Contract& layout = predictor_.probed_layout();
  std::vector<LaneHypothesis> result;
  named_by_structure = false;

  if (layout.find_field("S")) return state_candidates(lane, response);
  if (layout.find_field("B")) {
    result.push_back({key_head, {element("B", lane)}});
    result.push_back({key_head, {element("A", lane)}});
    result.push_back({key_head, {element("B", lane), element("A", lane)}});
    return result;
  }

  // qkvz: elements the conv state names, grouped by the key head they belong to.
  std::map<std::int64_t, std::vector<ElementRef>> by_key_head;
  std::vector<ElementRef> own_values;
  for (const ElementRef& e : conv_elements) {
    const ElementRole role = predictor_.role(e);
    if (role == ElementRole::q || role == ElementRole::k)
      by_key_head[predictor_.head_of(e)].push_back(e);
    else if (role == ElementRole::v && predictor_.head_of(e) == lane)
      own_values.push_back(e);
  }
  if (!by_key_head.empty() || !own_values.empty()) {
    named_by_structure = true;
    if (by_key_head.empty()) result.push_back({key_head, own_values});
    for (auto& [head, elements] : by_key_head) {
      LaneHypothesis hypothesis{head, elements};
      hypothesis.elements.insert(hypothesis.elements.end(), own_values.begin(), own_values.end());
      result.push_back(std::move(hypothesis));
    }
    // A competitor: the first named element's neighbour in its head, to show the match is sharp.
    const ElementRef first = result.front().elements.front();
    const std::int64_t size = predictor_.role(first) == ElementRole::v ? V : K;
    if (size > 1) {
      LaneHypothesis neighbour = result.front();
      neighbour.elements.front().linear += predictor_.index_in_head(first) + 1 < size ? 1 : -1;
      result.push_back(std::move(neighbour));
    }
    return result;
  }

  // Nothing named: the roles that fit the response, every index.
  const bool state_changed = contains(response.state_lanes, lane);
  std::int64_t changed_lanes = 0, last_changed = 0;
  for (std::int64_t v = 0; v < V && !response.out_delta.empty(); ++v)
    if (response.out_delta[static_cast<std::size_t>(lane * V + v)] != 0) {
      ++changed_lanes;
      last_changed = v;
    }
  if (!state_changed && changed_lanes == 1) {  // only z gates a single output lane
    named_by_structure = true;
    result.push_back({key_head, {element("Z", lane * V + last_changed)}});
    return result;
  }
  for (std::int64_t k = 0; k < K; ++k)
    result.push_back({key_head, {element(state_changed ? "K" : "Q", key_head * K + k)}});
  for (std::int64_t v = 0; v < V; ++v)
    result.push_back({key_head, {element(state_changed ? "V" : "Z", lane * V + v)}});
  return result;
}

std::vector<LaneHypothesis> ProbeDecoder::state_candidates(std::int64_t lane,
                                                           const RowResponse& response) const {
  const std::int64_t K = shape_.K, V = shape_.V, key_head = standard_key_head(lane);
  // Columns worth trying: where the largest state change sits under the claimed layout (and its
  // transpose, a common state bug), and the output lane that moved unlike the others.
  std::set<std::int64_t> columns;
  std::set<std::int64_t> rows;
  if (response.state_largest_offset >= 0) {
    const std::int64_t s = state_element_at_[static_cast<std::size_t>(response.state_largest_offset)];
    if (s >= 0 && s / (K * V) == lane) {
      const std::int64_t k = s % (K * V) / V, v = s % V;
      columns.insert(v);
      rows.insert(k);
      if (k < V) columns.insert(k);
    }
  }
  if (!response.out_delta.empty()) {
    std::vector<double> ratios;
    for (std::int64_t v = 0; v < V; ++v) {
      const double base = bf16_to_float(base_out_[static_cast<std::size_t>(lane * V + v)]);
      if (base != 0) ratios.push_back(response.out_delta[static_cast<std::size_t>(lane * V + v)] / base);
    }
    if (!ratios.empty()) {
      std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
      const double common = ratios[ratios.size() / 2];
      std::int64_t outlier = 0;
      double largest = -1;
      for (std::int64_t v = 0; v < V; ++v) {
        const double base = bf16_to_float(base_out_[static_cast<std::size_t>(lane * V + v)]);
        const double off = std::abs(response.out_delta[static_cast<std::size_t>(lane * V + v)] - common * base);
        if (off > largest) {
          largest = off;
          outlier = v;
        }
      }
      columns.insert(outlier);
    }
  }
  std::set<std::int64_t> linear;
  for (std::int64_t v : columns)
    for (std::int64_t k = 0; k < K; ++k) linear.insert((lane * K + k) * V + v);
  for (std::int64_t k : rows)
    for (std::int64_t v = 0; v < V; ++v) linear.insert((lane * K + k) * V + v);
  std::vector<LaneHypothesis> result;
  for (std::int64_t s : linear) result.push_back({key_head, {element("S", s)}});
  return result;
}

void ProbeDecoder::decode(const RowResponse& response, ProbeDecoding& decoding) const {
  std::vector<ElementRef> conv_elements;
  bool conv_holds_other_values = false;
  if (predictor_.probed_layout().find_field("Q")) {
    const std::int64_t HK = shape_.H * shape_.K;
    for (std::size_t i = 0; i < response.conv_channels.size(); ++i) {
      if (response.conv_values[i] != hot_bits_) {
        conv_holds_other_values = true;
        continue;
      }
      const std::int64_t c = response.conv_channels[i];
      conv_elements.push_back(c < HK ? element("Q", c) : c < 2 * HK ? element("K", c - HK)
                                                                    : element("V", c - 2 * HK));
    }
  }

  std::vector<std::int64_t> lanes = response.out_lanes;
  lanes.insert(lanes.end(), response.state_lanes.begin(), response.state_lanes.end());
  std::sort(lanes.begin(), lanes.end());
  lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());

  decoding.elements = conv_elements;
  decoding.outcome = ProbeOutcome::resolved;
  if (lanes.empty()) {
    if (conv_elements.empty()) {
      decoding.outcome = ProbeOutcome::unresolved;
      decoding.detail = conv_holds_other_values
                            ? "a conv tap changed to a value other than the probe's"
                            : "only the older conv taps or unassigned state offsets changed";
    }
    return;
  }

  for (std::int64_t lane : lanes) {
    bool named_by_structure = false;
    std::vector<LaneHypothesis> hypotheses =
        candidates(lane, response, conv_elements, named_by_structure);
    const std::size_t named = named_by_structure ? 1 : 0;
    std::vector<Scored> scored;
    for (LaneHypothesis& hypothesis : hypotheses)
      scored.push_back({hypothesis, score(lane, hypothesis, response)});
    auto by_score = [](const Scored& a, const Scored& b) { return a.score < b.score; };
    std::sort(scored.begin(), scored.end(), by_score);
    // A lane that also read z from the probed offset (z taken from the wrong segment).
    if (named && scored.front().score > 1 && !hypotheses.front().elements.empty() &&
        predictor_.role(hypotheses.front().elements.front()) != ElementRole::z) {
      LaneHypothesis with_z = hypotheses.front();
      with_z.elements.push_back(
          element("Z", lane * shape_.V + residual_peak(lane, hypotheses.front(), response)));
      scored.push_back({with_z, score(lane, with_z, response)});
      std::sort(scored.begin(), scored.end(), by_score);
    }

    const Scored& best = scored.front();
    if (best.score <= 1) {
      if (scored.size() > 1 && scored[1].score <= kSeparation) {
        decoding.outcome = ProbeOutcome::ambiguous;
        decoding.detail = "value head " + std::to_string(lane) + " matches " +
                          describe(lane, best.hypothesis) + " and " +
                          describe(lane, scored[1].hypothesis);
        continue;
      }
      decoding.lanes.push_back({lane, best.hypothesis.key_head, best.hypothesis.elements, true});
    } else if (named) {
      decoding.lanes.push_back(
          {lane, hypotheses.front().key_head, hypotheses.front().elements, false});
    } else {
      if (decoding.outcome != ProbeOutcome::ambiguous) decoding.outcome = ProbeOutcome::unresolved;
      decoding.detail = "value head " + std::to_string(lane) +
                        ": no candidate matches (closest " + describe(lane, best.hypothesis) +
                        ", off by " + std::to_string(best.score) + " tolerances)";
    }
  }
  for (const LaneRead& read : decoding.lanes)
    for (const ElementRef& e : read.elements)
      if (std::find(decoding.elements.begin(), decoding.elements.end(), e) == decoding.elements.end())
        decoding.elements.push_back(e);
}

}  // namespace layoutcheck
