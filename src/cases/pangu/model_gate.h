// The model gate's judgement: the block stack's output along the native path against the generic
// path's, channel by channel. Each channel's relative L2 distance must be within the tolerance,
// and each native channel must be nearest to the generic channel of the same index (over sampled
// tokens), so a stack that permutes channels fails by name even when every value is plausible.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "layoutcheck/platform/fp16.h"

namespace layoutcheck::pangu {

// fp16 rounding through two blocks of random weights, in other reduction orders, stays well below
// this at the real grids (results/pangu-gate-*.md); a layout fault moves whole tokens (about 1).
inline constexpr double kModelGateTolerance = 2e-3;

struct ChannelComparison {
  std::int64_t tokens = 0, channels = 0;
  std::vector<double> rel_l2;  // per channel: |candidate - baseline| / |baseline| (inf on NaN)
  std::int64_t worst_channel = 0;
  double worst = 0;
  // (candidate channel, the baseline channel it is nearest to), where the two differ.
  std::vector<std::pair<std::int64_t, std::int64_t>> misordered;
  std::int64_t sampled_tokens = 0;  // the tokens the order check compared

  bool passed(double tolerance = kModelGateTolerance) const;
  // One line: "192 channels within 1e-02 (worst 3.1e-04 at channel 17), channel order kept".
  std::string summary(double tolerance = kModelGateTolerance) const;
  // Each failing channel (the first few) and each misordered one, one line each.
  std::vector<std::string> findings(double tolerance = kModelGateTolerance) const;
};

// @pre candidate.size() == baseline.size(), a multiple of channels (tokens x channels, row-major).
ChannelComparison compare_channels(std::span<const fp16_bits> candidate,
                                   std::span<const fp16_bits> baseline, std::int64_t channels,
                                   std::int64_t sample_tokens = 1024);

}  // namespace layoutcheck::pangu
