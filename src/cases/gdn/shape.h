// The sizes of one GDN (Gated DeltaNet) decode problem. Defaults are the Qwen3.5-27B-style target:
// 16 key heads, 48 value heads, K = V = 128, causal conv width 4.
#pragma once

#include <cstdint>

#include "layoutcheck/platform/bf16.h"

namespace layoutcheck {

struct GdnShape {
  std::int64_t H = 16;   // key heads
  std::int64_t HV = 48;  // value heads; value head hv uses key head hv / G
  std::int64_t K = 128;  // key head dim
  std::int64_t V = 128;  // value head dim
  std::int64_t W = 4;    // conv width; the conv state keeps W - 1 raw inputs per channel

  LC_HOST_DEVICE constexpr std::int64_t G() const { return HV / H; }
  // conv channels, logical order [Q all | K all | V all]
  LC_HOST_DEVICE constexpr std::int64_t conv_channels() const { return 2 * H * K + HV * V; }
  LC_HOST_DEVICE constexpr std::int64_t qkvz_elements() const { return 2 * H * K + 2 * HV * V; }
  LC_HOST_DEVICE constexpr std::int64_t ba_elements() const { return 2 * HV; }
  LC_HOST_DEVICE constexpr std::int64_t state_elements() const { return HV * K * V; }
  LC_HOST_DEVICE constexpr bool valid() const {
    return H > 0 && HV > 0 && K > 0 && V > 0 && W >= 2 && HV % H == 0;
  }
};

}  // namespace layoutcheck
