#include "cases/gdn/probe/decoder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "cases/gdn/probe/state_change_shape.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

// fp32 state: a few ulps of the state's scale.
constexpr double kFp32Rounding = 1.0 / (1 << 21);
// A second candidate within this many tolerances makes a match ambiguous.
constexpr double kSeparation = 2.0;

// One unit in the last place of a bf16 value: how far a kernel's rounded output may sit from the
// exact one, whatever its rounding mode.
double bf16_ulp(double value) {
  if (value == 0 || !std::isfinite(value)) return std::ldexp(1.0, -133);
  int exponent = 0;
  std::frexp(value, &exponent);  // |value| in [2^(exponent-1), 2^exponent)
  return std::ldexp(1.0, exponent - 1 - 7);
}

double norm(std::span<const double> values) {
  double square = 0;
  for (double value : values) square += value * value;
  return std::sqrt(square);
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
  const Field& claimed = *state_layout.find_field("S");
  claimed.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    state_element_at_[static_cast<std::size_t>(offset)] = linear;
  });
  // The other standard order, when the claimed one is standard: where a kernel that mixed the
  // two up writes each element.
  for (StateOrder order : {StateOrder::hkv, StateOrder::hvk}) {
    const Field standard = *state_contract(shape, order).find_field("S");
    if (standard.dims.size() != claimed.dims.size()) continue;
    bool same = true;
    claimed.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      same = same && standard.offset_of_linear(linear) == offset;
    });
    if (!same) continue;
    const Field other =
        *state_contract(shape, order == StateOrder::hkv ? StateOrder::hvk : StateOrder::hkv)
             .find_field("S");
    transposed_source_.resize(static_cast<std::size_t>(shape.state_elements()));
    other.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      transposed_source_[static_cast<std::size_t>(linear)] =
          state_element_at_[static_cast<std::size_t>(offset)];
    });
    break;
  }
}

std::vector<ProbeDecoder::StatePlacement> ProbeDecoder::placements() const {
  if (transposed_source_.empty()) return {StatePlacement::claimed, StatePlacement::anywhere};
  return {StatePlacement::claimed, StatePlacement::transposed, StatePlacement::anywhere};
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

std::span<const float> ProbeDecoder::observed_out(std::int64_t lane,
                                                  const RowResponse& response) const {
  if (response.out_delta.empty()) return {};
  return std::span(response.out_delta)
      .subspan(static_cast<std::size_t>(lane * shape_.V), static_cast<std::size_t>(shape_.V));
}

std::span<const double> ProbeDecoder::observed_state(std::int64_t lane,
                                                     const RowResponse& response) const {
  for (std::size_t i = 0; i < response.state_lanes.size(); ++i)
    if (response.state_lanes[i] == lane) return response.state_lane_deltas[i];
  return {};
}

double ProbeDecoder::Fit::score() const {
  const double result = std::max(out_miss / out_allowance, state_miss / state_allowance);
  return std::isnan(result) ? INFINITY : result;
}

ProbeDecoder::Fit ProbeDecoder::fit(std::int64_t lane, const Evaluated& evaluated,
                                    const RowResponse& response, StatePlacement placement) const {
  const LanePrediction& prediction = evaluated.prediction;
  const std::int64_t V = shape_.V;
  Fit result;
  const std::span<const float> seen_out = observed_out(lane, response);
  // Each output element was rounded to bf16 twice (base and probe): a miss within those two ulps
  // is no miss at all.
  double miss = 0, observed = 0;
  for (std::int64_t v = 0; v < V; ++v) {
    const double seen = seen_out.empty() ? 0.0 : seen_out[v];
    const double base_value = bf16_to_float(base_out_[static_cast<std::size_t>(lane * V + v)]);
    const double slack = bf16_ulp(base_value) + bf16_ulp(base_value + seen);
    const double off = std::max(0.0, std::abs(seen - prediction.out_delta[v]) - slack);
    miss += off * off;
    observed += seen * seen;
  }
  result.out_miss = std::sqrt(miss);
  result.out_allowance =
      tolerance_ * std::max(std::sqrt(observed), norm(prediction.out_delta)) + 1e-30;

  // The state: element by element where the claimed layout or the other standard order puts
  // it, or as sorted magnitudes.
  const std::span<const double> seen_state = observed_state(lane, response);
  const std::vector<double>& predicted = prediction.state_delta;
  const std::size_t size = predicted.size();
  double state_miss = 0, seen_square = 0, predicted_square = 0;
  auto add = [&](double seen, double expected) {
    state_miss += (seen - expected) * (seen - expected);
    seen_square += seen * seen;
    predicted_square += expected * expected;
  };
  if (placement == StatePlacement::claimed) {
    for (std::size_t i = 0; i < size; ++i)
      add(seen_state.empty() ? 0.0 : seen_state[i], predicted[i]);
  } else {
    thread_local std::vector<double> seen_sorted, predicted_sorted;
    seen_sorted.assign(size, 0.0);
    predicted_sorted.assign(predicted.begin(), predicted.end());
    if (!seen_state.empty() && placement == StatePlacement::transposed) {
      // seen_sorted[i]: what was observed where the other order puts element i of this head
      const auto head = static_cast<std::int64_t>(size);
      for (std::int64_t i = 0; i < head; ++i) {
        const std::int64_t source = transposed_source_[static_cast<std::size_t>(lane * head + i)];
        if (source / head == lane)
          seen_sorted[static_cast<std::size_t>(i)] = seen_state[source % head];
      }
    } else if (!seen_state.empty()) {
      std::copy(seen_state.begin(), seen_state.end(), seen_sorted.begin());
    }
    if (placement == StatePlacement::anywhere) {
      for (double& value : seen_sorted) value = std::abs(value);
      for (double& value : predicted_sorted) value = std::abs(value);
      std::sort(seen_sorted.begin(), seen_sorted.end());
      std::sort(predicted_sorted.begin(), predicted_sorted.end());
    }
    for (std::size_t i = 0; i < size; ++i) add(seen_sorted[i], predicted_sorted[i]);
  }
  result.state_miss = std::sqrt(state_miss);
  result.state_allowance =
      tolerance_ * std::sqrt(std::max(seen_square, predicted_square)) +
      kFp32Rounding * predictor_.base_state_norm(lane, evaluated.hypothesis.key_head) + 1e-30;
  return result;
}

ProbeDecoder::Evaluated ProbeDecoder::evaluate(std::int64_t lane, const LaneHypothesis& hypothesis,
                                               const RowResponse& response,
                                               StatePlacement placement) const {
  Evaluated evaluated{hypothesis, predictor_.predict(lane, hypothesis), {}};
  evaluated.fit = fit(lane, evaluated, response, placement);
  return evaluated;
}

std::vector<std::int64_t> ProbeDecoder::worst_lanes(std::int64_t lane,
                                                    const LanePrediction& prediction,
                                                    const RowResponse& response) const {
  constexpr std::size_t kLanes = 3;
  const std::span<const float> seen_out = observed_out(lane, response);
  std::vector<std::pair<double, std::int64_t>> residuals;
  for (std::int64_t v = 0; v < shape_.V; ++v)
    residuals.emplace_back(
        -std::abs((seen_out.empty() ? 0.0 : seen_out[v]) - prediction.out_delta[v]), v);
  const std::size_t count = std::min(kLanes, residuals.size());
  std::partial_sort(residuals.begin(), residuals.begin() + static_cast<std::ptrdiff_t>(count),
                    residuals.end());
  std::vector<std::int64_t> worst;
  for (std::size_t i = 0; i < count; ++i) worst.push_back(residuals[i].second);
  return worst;
}

void ProbeDecoder::look_elsewhere_for_state(std::int64_t lane, const RowResponse& response,
                                            std::vector<Evaluated>& tried) const {
  auto fits = [](const Evaluated& e) { return e.score() <= 1; };
  for (StatePlacement placement : placements()) {
    if (placement == StatePlacement::claimed) continue;
    if (std::any_of(tried.begin(), tried.end(), fits)) return;
    // Only candidates whose output already fits can be saved by placing the state elsewhere.
    for (Evaluated& e : tried)
      if (e.fit.out_miss <= e.fit.out_allowance) e.fit = fit(lane, e, response, placement);
  }
}

std::vector<LaneHypothesis> ProbeDecoder::named_options(
    std::int64_t lane, const RowResponse& response,
    const std::vector<ElementRef>& conv_elements) const {
  std::map<std::int64_t, std::vector<ElementRef>> by_key_head;
  std::vector<ElementRef> own_values;
  for (const ElementRef& e : conv_elements) {
    const ElementRole role = predictor_.role(e);
    if (role == ElementRole::q || role == ElementRole::k)
      by_key_head[predictor_.head_of(e)].push_back(e);
    else if (role == ElementRole::v && predictor_.head_of(e) == lane)
      own_values.push_back(e);
  }
  std::vector<LaneHypothesis> options;
  if (by_key_head.empty() && !own_values.empty())
    options.push_back({standard_key_head(lane), own_values});
  for (auto& [key_head, elements] : by_key_head) {
    LaneHypothesis option{key_head, elements};
    option.elements.insert(option.elements.end(), own_values.begin(), own_values.end());
    options.push_back(std::move(option));
  }
  if (!options.empty() || !observed_state(lane, response).empty()) return options;

  // Only z gates a single output lane without touching the state.
  const std::span<const float> seen_out = observed_out(lane, response);
  std::int64_t moved = 0, last = 0;
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(seen_out.size()); ++v)
    if (seen_out[v] != 0) {
      ++moved;
      last = v;
    }
  if (moved == 1)
    options.push_back({standard_key_head(lane), {element("Z", lane * shape_.V + last)}});
  return options;
}

ProbeDecoder::NamedLane ProbeDecoder::verify_named(std::int64_t lane,
                                                   const std::vector<LaneHypothesis>& options,
                                                   const RowResponse& response) const {
  auto better = [](const Evaluated& a, const Evaluated& b) { return a.score() < b.score(); };
  std::vector<Evaluated> tried;
  auto fits = [&] { return std::min_element(tried.begin(), tried.end(), better)->score() <= 1; };
  for (const LaneHypothesis& option : options)
    tried.push_back(evaluate(lane, option, response, StatePlacement::claimed));
  const LaneHypothesis& lead = options.front();
  // Did the lane also take its z from the probed offset (z read from the wrong segment)? z at the
  // output lane the named elements explain worst must fit clearly better than they do alone; when
  // nothing fits, the next worst lanes are tried too.
  if (predictor_.role(lead.elements.front()) != ElementRole::z) {
    const std::vector<std::int64_t> worst = worst_lanes(lane, tried.front().prediction, response);
    const double alone = tried.front().score();
    for (std::size_t i = 0; i < worst.size(); ++i) {
      LaneHypothesis with_z = lead;
      with_z.elements.push_back(element("Z", lane * shape_.V + worst[i]));
      Evaluated candidate = evaluate(lane, with_z, response, StatePlacement::claimed);
      if (candidate.score() <= 1 && (i > 0 || candidate.score() * kSeparation < alone)) {
        tried.push_back(std::move(candidate));
        break;
      }
      if (fits()) break;  // the named elements alone explain the lane
    }
  }
  // Only value-head elements named: the lane may read q and k from another key head.
  const bool names_key_head = std::any_of(lead.elements.begin(), lead.elements.end(), [&](auto e) {
    return predictor_.role(e) == ElementRole::q || predictor_.role(e) == ElementRole::k;
  });
  if (!fits() && !names_key_head)
    for (std::int64_t key_head = 0; key_head < shape_.H; ++key_head)
      if (key_head != lead.key_head)
        tried.push_back(
            evaluate(lane, {key_head, lead.elements}, response, StatePlacement::claimed));
  look_elsewhere_for_state(lane, response, tried);
  return NamedLane{lane,
                   fits() ? *std::min_element(tried.begin(), tried.end(), better) : tried.front()};
}

std::vector<LaneHypothesis> ProbeDecoder::predicted_candidates(std::int64_t lane,
                                                               const RowResponse& response) const {
  const std::int64_t K = shape_.K, V = shape_.V, key_head = standard_key_head(lane);
  const Contract& layout = predictor_.probed_layout();
  if (layout.find_field("S")) return state_candidates(lane, response);
  std::vector<LaneHypothesis> result;
  if (layout.find_field("B")) {
    result.push_back({key_head, {element("B", lane)}});
    result.push_back({key_head, {element("A", lane)}});
    result.push_back({key_head, {element("B", lane), element("A", lane)}});
    return result;
  }
  // qkvz with nothing named (a kernel that does not keep raw inputs in the conv state): every
  // index of the roles that fit whether the state moved.
  const bool state_changed = !observed_state(lane, response).empty();
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
    const std::int64_t s =
        state_element_at_[static_cast<std::size_t>(response.state_largest_offset)];
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
      if (base != 0)
        ratios.push_back(response.out_delta[static_cast<std::size_t>(lane * V + v)] / base);
    }
    if (!ratios.empty()) {
      std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
      const double common = ratios[ratios.size() / 2];
      std::int64_t outlier = 0;
      double largest = -1;
      for (std::int64_t v = 0; v < V; ++v) {
        const double base = bf16_to_float(base_out_[static_cast<std::size_t>(lane * V + v)]);
        const double off =
            std::abs(response.out_delta[static_cast<std::size_t>(lane * V + v)] - common * base);
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

std::optional<LaneHypothesis> ProbeDecoder::named_by_state_shape(
    std::int64_t lane, std::int64_t offset, const RowResponse& response) const {
  const std::span<const double> seen = observed_state(lane, response);
  if (seen.empty()) return std::nullopt;
  const std::int64_t K = shape_.K, V = shape_.V, key_head = standard_key_head(lane);
  const Contract& layout = predictor_.probed_layout();
  if (layout.find_field("B")) {
    const double slack =
        tolerance_ * norm(seen) + kFp32Rounding * predictor_.base_state_norm(lane, key_head);
    const std::optional<StateChange> change = classify_state_change(seen, K, V, slack);
    if (!change) return std::nullopt;
    return LaneHypothesis{key_head,
                          {element(*change == StateChange::decay_like ? "A" : "B", lane)}};
  }
  if (!layout.find_field("S") || offset < 0 ||
      offset >= static_cast<std::int64_t>(state_element_at_.size()))
    return std::nullopt;
  // An in-place kernel writes the element it read back where it read it, and the rest of its
  // column: the line through the probed offset says which element that was.
  const std::int64_t s = state_element_at_[static_cast<std::size_t>(offset)];
  if (s < 0 || s / (K * V) != lane) return std::nullopt;
  const std::int64_t k = s % (K * V) / V, v = s % V;
  const std::optional<StateLine> line = single_changed_line(seen, K, V);
  if (!line || seen[static_cast<std::size_t>(k * V + v)] == 0) return std::nullopt;
  if (line->column && line->index == v) return LaneHypothesis{key_head, {element("S", s)}};
  if (!line->column && line->index == k && K == V)  // written transposed: read as S[v, k]
    return LaneHypothesis{key_head, {element("S", (lane * K + v) * V + k)}};
  return std::nullopt;
}

void ProbeDecoder::choose_by_prediction(std::int64_t lane,
                                        const std::vector<LaneHypothesis>& candidates,
                                        const RowResponse& response,
                                        ProbeDecoding& decoding) const {
  std::vector<Evaluated> evaluated;
  for (const LaneHypothesis& candidate : candidates)
    evaluated.push_back(evaluate(lane, candidate, response, StatePlacement::claimed));
  auto by_score = [](const Evaluated& a, const Evaluated& b) { return a.score() < b.score(); };
  look_elsewhere_for_state(lane, response, evaluated);
  std::sort(evaluated.begin(), evaluated.end(), by_score);
  if (evaluated.empty() || evaluated.front().score() > 1) {
    if (auto named = named_by_state_shape(lane, decoding.offset, response)) {
      decoding.lanes.push_back({lane, named->key_head, named->elements, false});
      return;
    }
    if (decoding.outcome != ProbeOutcome::ambiguous) decoding.outcome = ProbeOutcome::unresolved;
    decoding.detail =
        "value head " + std::to_string(lane) + ": no candidate matches" +
        (evaluated.empty()
             ? std::string()
             : " (closest " + describe(lane, evaluated.front().hypothesis) + ", off by " +
                   std::to_string(evaluated.front().score()) + " tolerances)");
    return;
  }
  if (evaluated.size() > 1 && evaluated[1].score() <= kSeparation) {
    decoding.outcome = ProbeOutcome::ambiguous;
    decoding.detail = "value head " + std::to_string(lane) + " matches " +
                      describe(lane, evaluated[0].hypothesis) + " and " +
                      describe(lane, evaluated[1].hypothesis);
    return;
  }
  decoding.lanes.push_back(
      {lane, evaluated.front().hypothesis.key_head, evaluated.front().hypothesis.elements, true});
}

void ProbeDecoder::decode(const RowResponse& response, ProbeDecoding& decoding) const {
  std::vector<ElementRef> conv_elements;
  bool conv_holds_other_values = false;
  const bool qkvz = predictor_.probed_layout().find_field("Q") != nullptr;
  if (qkvz) {
    const std::int64_t HK = shape_.H * shape_.K;
    for (std::size_t i = 0; i < response.conv_channels.size(); ++i) {
      if (response.conv_values[i] != hot_bits_) {
        conv_holds_other_values = true;
        continue;
      }
      const std::int64_t c = response.conv_channels[i];
      conv_elements.push_back(c < HK       ? element("Q", c)
                              : c < 2 * HK ? element("K", c - HK)
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

  std::vector<NamedLane> named;
  for (std::int64_t lane : lanes) {
    const std::vector<LaneHypothesis> options =
        qkvz ? named_options(lane, response, conv_elements) : std::vector<LaneHypothesis>{};
    if (!options.empty())
      named.push_back(verify_named(lane, options, response));
    else
      choose_by_prediction(lane, predicted_candidates(lane, response), response, decoding);
  }

  // Elements the conv state names stand; the prediction only says whether the values agree.
  for (const NamedLane& lane : named)
    decoding.lanes.push_back({lane.lane, lane.chosen.hypothesis.key_head,
                              lane.chosen.hypothesis.elements, lane.chosen.score() <= 1});
  if (decoding.outcome != ProbeOutcome::resolved) return;
  for (const LaneRead& read : decoding.lanes)
    for (const ElementRef& e : read.elements)
      if (std::find(decoding.elements.begin(), decoding.elements.end(), e) ==
          decoding.elements.end())
        decoding.elements.push_back(e);
}

}  // namespace layoutcheck
