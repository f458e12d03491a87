#include "cases/gdn/probe/output_writes.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "cases/gdn/random_problem.h"

namespace layoutcheck {
namespace {

constexpr int kLanePasses = 3;

// Positions of the out row (batch row 0) whose bits differ.
std::set<std::int64_t> changed(const GdnStepOutputs& base, const GdnStepOutputs& probed,
                               std::int64_t row_size) {
  std::set<std::int64_t> positions;
  for (std::int64_t i = 0; i < row_size; ++i)
    if (base.out[static_cast<std::size_t>(i)] != probed.out[static_cast<std::size_t>(i)])
      positions.insert(i);
  return positions;
}

class OutputReordered : public GdnRunner {
 public:
  OutputReordered(GdnRunner& kernel, OutputWrites writes)
      : kernel_(kernel), writes_(std::move(writes)) {}
  std::string name() const override { return kernel_.name() + " (out read as written)"; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    GdnStepOutputs outputs;
    step_into(inputs, outputs);
    return outputs;
  }
  void step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) override {
    kernel_.step_into(inputs, outputs);
    const auto row = static_cast<std::int64_t>(writes_.position.size());
    scratch_ = outputs.out;
    for (std::int64_t r = 0; r < inputs.batch; ++r)
      for (std::int64_t i = 0; i < row; ++i)
        outputs.out[static_cast<std::size_t>(r * row + i)] =
            scratch_[static_cast<std::size_t>(r * row + writes_.position[i])];
  }
  std::int64_t preferred_probe_batch(const GdnShape& shape) const override {
    return kernel_.preferred_probe_batch(shape);
  }

 private:
  GdnRunner& kernel_;
  OutputWrites writes_;
  std::vector<bf16_bits> scratch_;
};

}  // namespace

bool OutputWrites::as_model() const {
  if (!determined) return false;
  for (std::size_t i = 0; i < position.size(); ++i)
    if (position[i] != static_cast<std::int64_t>(i)) return false;
  return true;
}

std::string OutputWrites::notation(const GdnShape& shape) const {
  if (!determined || shape.HV < 1 || shape.V < 1) return "";
  const auto at = [&](std::int64_t hv, std::int64_t v) {
    return position[static_cast<std::size_t>(hv * shape.V + v)];
  };
  const std::int64_t base = at(0, 0);
  const std::int64_t head_stride = shape.HV > 1 ? at(1, 0) - base : shape.V;
  const std::int64_t element_stride = shape.V > 1 ? at(0, 1) - base : 1;
  for (std::int64_t hv = 0; hv < shape.HV; ++hv)
    for (std::int64_t v = 0; v < shape.V; ++v)
      if (at(hv, v) != base + hv * head_stride + v * element_stride) return "";
  return (base != 0 ? std::to_string(base) + " + " : "") + "(" + std::to_string(shape.HV) + "," +
         std::to_string(shape.V) + "):(" + std::to_string(head_stride) + "," +
         std::to_string(element_stride) + ")";
}

OutputWrites find_output_writes(GdnRunner& runner, const GdnShape& shape, const GdnLayouts& model,
                                std::uint64_t seed) {
  OutputWrites writes;
  const std::int64_t row = shape.HV * shape.V;
  const GdnStepInputs base_inputs = make_random_step_inputs(shape, model, 1, seed);
  GdnStepOutputs base, probed;
  runner.step_into(base_inputs, base);
  ++writes.runs;
  if (static_cast<std::int64_t>(base.out.size()) < row) {
    writes.detail = "the kernel returned " + std::to_string(base.out.size()) +
                    " output elements, the row holds " + std::to_string(row);
    return writes;
  }
  GdnStepInputs inputs = base_inputs;
  // A column: norm_weight[v] scales out[hv, v] for every hv, by a factor far from 1.
  std::vector<std::set<std::int64_t>> column(static_cast<std::size_t>(shape.V));
  for (std::int64_t v = 0; v < shape.V; ++v) {
    bf16_bits& weight = inputs.weights.norm_weight[static_cast<std::size_t>(v)];
    const bf16_bits kept = weight;
    weight = float_to_bf16(-3.0f * bf16_to_float(kept) - 1.0f);
    runner.step_into(inputs, probed);
    ++writes.runs;
    column[static_cast<std::size_t>(v)] = changed(base, probed, row);
    weight = kept;
  }
  // A lane: head hv's output row moves with its decay, exp(-exp(A_log) softplus(a + dt_bias)),
  // and with its v (the V channels' conv weights, [C][W] in [Q|K|V] channel order): the decay set
  // to 1, to 0, and the v scaled unevenly. A head whose v barely counts (beta (k . q) small) only
  // scales with its decay, which its RMS norm undoes: further random inputs find it.
  std::vector<std::set<std::int64_t>> lane(static_cast<std::size_t>(shape.HV));
  const std::int64_t v_channels = 2 * shape.H * shape.K;
  for (int pass = 0; pass < kLanePasses; ++pass) {
    if (pass > 0) {
      inputs =
          make_random_step_inputs(shape, model, 1, seed + 1000 * static_cast<std::uint64_t>(pass));
      runner.step_into(inputs, base);
      ++writes.runs;
    }
    for (std::int64_t hv = 0; hv < shape.HV; ++hv) {
      std::set<std::int64_t>& found = lane[static_cast<std::size_t>(hv)];
      if (static_cast<std::int64_t>(found.size()) == shape.V) continue;
      GdnWeights& weights = inputs.weights;
      const GdnWeights kept = weights;
      const auto at = static_cast<std::size_t>(hv);
      for (int which = 0; which < 3; ++which) {
        if (which == 0) weights.A_log[at] = -30.0f;  // decay 1
        if (which == 1) {                            // decay 0
          weights.A_log[at] = 10.0f;
          weights.dt_bias[at] = 30.0f;
        }
        if (which == 2)
          for (std::int64_t j = 0; j < shape.V; ++j)
            for (std::int64_t tap = 0; tap < shape.W; ++tap) {
              bf16_bits& w = weights.conv_weight[static_cast<std::size_t>(
                  (v_channels + hv * shape.V + j) * shape.W + tap)];
              w = float_to_bf16(bf16_to_float(w) *
                                ((j % 2 == 0 ? 1.0f : -1.0f) *
                                 (1.0f + static_cast<float>(j + 1) / static_cast<float>(shape.V))));
            }
        runner.step_into(inputs, probed);
        ++writes.runs;
        const std::set<std::int64_t> moved = changed(base, probed, row);
        found.insert(moved.begin(), moved.end());
        weights = kept;
      }
    }
  }
  // out[hv, v] is in column v and in lane hv; where rounding hid it from the lane, it is the one
  // position of the column no other lane claims.
  writes.position.assign(static_cast<std::size_t>(row), -1);
  for (std::int64_t v = 0; v < shape.V; ++v) {
    const std::set<std::int64_t>& in_column = column[static_cast<std::size_t>(v)];
    if (static_cast<std::int64_t>(in_column.size()) != shape.HV) {
      writes.detail = "norm_weight[" + std::to_string(v) + "] moved " +
                      std::to_string(in_column.size()) +
                      " output elements, not one per value head (" + std::to_string(shape.HV) + ")";
      return writes;
    }
    std::vector<std::int64_t> unplaced;
    std::set<std::int64_t> claimed;
    for (std::int64_t hv = 0; hv < shape.HV; ++hv) {
      std::vector<std::int64_t> both;
      std::set_intersection(in_column.begin(), in_column.end(),
                            lane[static_cast<std::size_t>(hv)].begin(),
                            lane[static_cast<std::size_t>(hv)].end(), std::back_inserter(both));
      if (both.size() > 1) {
        writes.detail = "value head " + std::to_string(hv) + " and norm_weight[" +
                        std::to_string(v) + "] move " + std::to_string(both.size()) +
                        " output elements together, not one";
        return writes;
      }
      if (both.empty()) {
        unplaced.push_back(hv);
        continue;
      }
      writes.position[static_cast<std::size_t>(hv * shape.V + v)] = both.front();
      claimed.insert(both.front());
    }
    if (unplaced.size() == 1) {
      for (std::int64_t position : in_column)
        if (claimed.count(position) == 0)
          writes.position[static_cast<std::size_t>(unplaced.front() * shape.V + v)] = position;
    } else if (unplaced.size() > 1) {
      writes.detail = std::to_string(unplaced.size()) + " value heads' elements of column " +
                      std::to_string(v) + " moved with norm_weight but not with their head's decay";
      return writes;
    }
  }
  std::vector<std::int64_t> sorted = writes.position;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    writes.detail = "two output elements are written to one position";
    return writes;
  }
  writes.determined = true;
  return writes;
}

std::unique_ptr<GdnRunner> read_output_as_written(GdnRunner& kernel, OutputWrites writes) {
  return std::make_unique<OutputReordered>(kernel, std::move(writes));
}

}  // namespace layoutcheck
