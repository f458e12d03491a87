#include "cases/pangu/model_gate.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace layoutcheck::pangu {
namespace {

std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", value);
  return text;
}

}  // namespace

bool ChannelComparison::passed(double tolerance) const {
  return channels > 0 && tokens > 0 && worst <= tolerance && misordered.empty();
}

std::string ChannelComparison::summary(double tolerance) const {
  std::int64_t within = 0;
  for (const double d : rel_l2) within += d <= tolerance;
  return std::to_string(within) + " of " + std::to_string(channels) + " channels within " +
         scientific(tolerance) + " rel L2 over " + std::to_string(tokens) + " tokens (worst " +
         scientific(worst) + " at channel " + std::to_string(worst_channel) + "), " +
         (misordered.empty() ? std::string("channel order kept")
                             : std::to_string(misordered.size()) + " channels out of order") +
         " (" + std::to_string(sampled_tokens) + " tokens sampled)";
}

std::vector<std::string> ChannelComparison::findings(double tolerance) const {
  std::vector<std::string> lines;
  constexpr std::size_t kShown = 8;
  std::int64_t failing = 0;
  for (std::int64_t c = 0; c < channels; ++c) {
    if (rel_l2[static_cast<std::size_t>(c)] <= tolerance) continue;
    if (static_cast<std::size_t>(failing++) < kShown)
      lines.push_back("channel " + std::to_string(c) + ": rel L2 " +
                      scientific(rel_l2[static_cast<std::size_t>(c)]) + " against the generic path");
  }
  if (failing > static_cast<std::int64_t>(kShown))
    lines.push_back("... and " + std::to_string(failing - static_cast<std::int64_t>(kShown)) +
                    " more channels beyond " + scientific(tolerance));
  for (std::size_t i = 0; i < misordered.size() && i < kShown; ++i)
    lines.push_back("channel " + std::to_string(misordered[i].first) +
                    " matches the generic path's channel " + std::to_string(misordered[i].second) +
                    ": channels out of order");
  return lines;
}

ChannelComparison compare_channels(std::span<const fp16_bits> candidate,
                                   std::span<const fp16_bits> baseline, std::int64_t channels,
                                   std::int64_t sample_tokens) {
  if (channels <= 0 || candidate.size() != baseline.size() ||
      baseline.size() % static_cast<std::size_t>(channels) != 0)
    throw std::invalid_argument("compare_channels: outputs of different shapes");
  ChannelComparison result;
  result.channels = channels;
  result.tokens = static_cast<std::int64_t>(baseline.size()) / channels;
  std::vector<double> difference(static_cast<std::size_t>(channels)),
      norm(static_cast<std::size_t>(channels));
  for (std::int64_t t = 0; t < result.tokens; ++t)
    for (std::int64_t c = 0; c < channels; ++c) {
      const std::size_t i = static_cast<std::size_t>(t * channels + c);
      const double want = fp16_to_float(baseline[i]), got = fp16_to_float(candidate[i]);
      difference[static_cast<std::size_t>(c)] += (got - want) * (got - want);
      norm[static_cast<std::size_t>(c)] += want * want;
    }
  for (std::int64_t c = 0; c < channels; ++c) {
    const double d = difference[static_cast<std::size_t>(c)], n = norm[static_cast<std::size_t>(c)];
    const double rel = std::isnan(d) || std::isinf(d) ? std::numeric_limits<double>::infinity()
                       : n > 0                        ? std::sqrt(d / n)
                       : d > 0                        ? std::numeric_limits<double>::infinity()
                                                      : 0.0;
    result.rel_l2.push_back(rel);
    if (c == 0 || rel > result.worst) {
      result.worst = rel;
      result.worst_channel = c;
    }
  }
  // Channel order over evenly spaced tokens: each candidate channel's nearest baseline channel.
  const std::int64_t step = std::max<std::int64_t>(1, result.tokens / sample_tokens);
  std::vector<std::int64_t> sampled;
  for (std::int64_t t = 0; t < result.tokens; t += step) sampled.push_back(t);
  result.sampled_tokens = static_cast<std::int64_t>(sampled.size());
  for (std::int64_t c = 0; c < channels; ++c) {
    std::int64_t nearest = c;
    double best = std::numeric_limits<double>::infinity();
    for (std::int64_t other = 0; other < channels; ++other) {
      double distance = 0;
      for (const std::int64_t t : sampled) {
        const double got = fp16_to_float(candidate[static_cast<std::size_t>(t * channels + c)]);
        const double want = fp16_to_float(baseline[static_cast<std::size_t>(t * channels + other)]);
        distance += (got - want) * (got - want);
      }
      // Ties keep the channel's own index: a constant channel is not a permutation.
      if (distance < best || (distance == best && other == c)) {
        best = distance;
        nearest = other;
      }
    }
    if (nearest != c) result.misordered.emplace_back(c, nearest);
  }
  return result;
}

}  // namespace layoutcheck::pangu
