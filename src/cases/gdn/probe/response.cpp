#include "cases/gdn/probe/response.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cases/gdn/layouts.h"

namespace layoutcheck {
namespace {

constexpr std::int64_t kCompareBlock = 256;  // floats compared with memcmp before looking closer

}  // namespace

ResponseExtractor::ResponseExtractor(const GdnShape& shape, const Contract& state_layout)
    : shape_(shape),
      state_row_size_(state_layout.row_size),
      state_row_stride_(row_stride(state_layout)),
      element_at_offset_(static_cast<std::size_t>(state_layout.row_size), -1) {
  state_layout.find_field("S")->for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    element_at_offset_[static_cast<std::size_t>(offset)] = linear;
  });
}

void ResponseExtractor::check_outputs(const GdnStepOutputs& outputs, std::int64_t batch,
                                      const std::string& runner) const {
  auto require = [&](const char* what, std::size_t actual, std::int64_t needed) {
    if (static_cast<std::int64_t>(actual) < needed)
      throw std::runtime_error(runner + " returned " + std::to_string(actual) + " " + what +
                               " values for " + std::to_string(batch) + " rows, " +
                               std::to_string(needed) + " expected");
  };
  require("out", outputs.out.size(), batch * shape_.HV * shape_.V);
  require("conv_state", outputs.conv_state.size(), batch * shape_.conv_channels() * (shape_.W - 1));
  require("state", outputs.state.size(), (batch - 1) * state_row_stride_ + state_row_size_);
}

RowResponse ResponseExtractor::extract(const GdnStepOutputs& probe, std::int64_t row,
                                       const GdnStepOutputs& base, std::int64_t base_row) const {
  RowResponse response;
  const std::int64_t HV = shape_.HV, V = shape_.V;

  const bf16_bits* out = probe.out.data() + row * HV * V;
  const bf16_bits* out_base = base.out.data() + base_row * HV * V;
  if (std::memcmp(out, out_base, static_cast<std::size_t>(HV * V) * sizeof(bf16_bits)) != 0) {
    response.out_delta.resize(static_cast<std::size_t>(HV * V));
    for (std::int64_t hv = 0; hv < HV; ++hv) {
      bool lane_changed = false;
      for (std::int64_t v = 0; v < V; ++v) {
        const std::int64_t i = hv * V + v;
        lane_changed |= out[i] != out_base[i];
        response.out_delta[i] = bf16_to_float(out[i]) - bf16_to_float(out_base[i]);
      }
      if (lane_changed) response.out_lanes.push_back(hv);
    }
  }

  const std::int64_t C = shape_.conv_channels(), W1 = shape_.W - 1;
  const bf16_bits* conv = probe.conv_state.data() + row * C * W1;
  const bf16_bits* conv_base = base.conv_state.data() + base_row * C * W1;
  if (std::memcmp(conv, conv_base, static_cast<std::size_t>(C * W1) * sizeof(bf16_bits)) != 0) {
    for (std::int64_t c = 0; c < C; ++c) {
      for (std::int64_t t = 0; t + 1 < W1; ++t)
        response.conv_older_taps_changed |= conv[c * W1 + t] != conv_base[c * W1 + t];
      if (conv[c * W1 + W1 - 1] != conv_base[c * W1 + W1 - 1]) {
        response.conv_channels.push_back(c);
        response.conv_values.push_back(conv[c * W1 + W1 - 1]);
      }
    }
  }

  const float* state = probe.state.data() + row * state_row_stride_;
  const float* state_base = base.state.data() + base_row * state_row_stride_;
  const std::int64_t head = shape_.K * shape_.V;
  std::vector<std::int64_t> slot_of_lane(static_cast<std::size_t>(HV), -1);
  double largest = -1;
  for (std::int64_t block = 0; block < state_row_size_; block += kCompareBlock) {
    const std::int64_t end = std::min(state_row_size_, block + kCompareBlock);
    if (std::memcmp(state + block, state_base + block,
                    static_cast<std::size_t>(end - block) * sizeof(float)) == 0)
      continue;
    for (std::int64_t i = block; i < end; ++i) {
      if (std::memcmp(state + i, state_base + i, sizeof(float)) == 0) continue;
      const double delta = static_cast<double>(state[i]) - static_cast<double>(state_base[i]);
      ++response.state_changed;
      const double square = std::isnan(delta) ? INFINITY : delta * delta;
      response.state_norm += square;
      if (square > largest) {
        largest = square;
        response.state_largest_offset = i;
      }
      const std::int64_t element = element_at_offset_[static_cast<std::size_t>(i)];
      if (element < 0) {
        response.state_outside_heads = true;
        continue;
      }
      std::int64_t& slot = slot_of_lane[static_cast<std::size_t>(element / head)];
      if (slot < 0) {
        slot = static_cast<std::int64_t>(response.state_lanes.size());
        response.state_lanes.push_back(element / head);
        response.state_lane_deltas.emplace_back(static_cast<std::size_t>(head), 0.0);
      }
      response.state_lane_deltas[static_cast<std::size_t>(slot)]
                                [static_cast<std::size_t>(element % head)] = delta;
    }
  }
  response.state_norm = std::sqrt(response.state_norm);

  response.changed = !response.out_lanes.empty() || !response.conv_channels.empty() ||
                     response.conv_older_taps_changed || response.state_changed > 0;
  return response;
}

}  // namespace layoutcheck
