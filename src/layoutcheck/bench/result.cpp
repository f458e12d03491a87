#include "layoutcheck/bench/result.h"

#include <algorithm>
#include <stdexcept>

namespace layoutcheck {

double CopyBandwidth::bytes_per_second() const {
  if (!(copy.median > 0)) throw std::invalid_argument("copy bandwidth was not measured");
  return static_cast<double>(bytes_per_copy) / (copy.median * 1e-6);
}

const BatchTiming* PathResult::timing_at(std::int64_t batch) const {
  for (const BatchTiming& timing : timings)
    if (timing.batch == batch) return &timing;
  return nullptr;
}

const PathResult* BenchReport::path(const std::string& name) const {
  for (const PathResult& result : paths)
    if (result.name == name) return &result;
  return nullptr;
}

double minimum_floor_us(const BenchReport& report, std::int64_t batch) {
  return floor_us(report.minimum_traffic.at(batch), report.copy_bandwidth.bytes_per_second());
}

std::optional<double> speedup(const BenchReport& report, const std::string& candidate,
                              const std::string& reference, std::int64_t batch) {
  const PathResult* fast = report.path(candidate);
  const PathResult* slow = report.path(reference);
  if (fast == nullptr || slow == nullptr) return std::nullopt;
  if (!fast->validity.valid || !slow->validity.valid) return std::nullopt;
  const BatchTiming* fast_timing = fast->timing_at(batch);
  const BatchTiming* slow_timing = slow->timing_at(batch);
  if (fast_timing == nullptr || slow_timing == nullptr) return std::nullopt;
  if (!(fast_timing->per_layer.median > 0) || !(slow_timing->per_layer.median > 0))
    return std::nullopt;
  return slow_timing->per_layer.median / fast_timing->per_layer.median;
}

std::vector<std::pair<std::string, std::string>> speedup_pairs(const BenchReport& report) {
  auto comparable = [&](const std::string& name) {
    const PathResult* path = report.path(name);
    return path != nullptr && path->validity.valid && !path->negative_control;
  };
  std::vector<std::pair<std::string, std::string>> pairs;
  auto add = [&](const std::string& candidate, const std::string& reference) {
    if (candidate == reference || !comparable(candidate) || !comparable(reference)) return;
    const std::pair<std::string, std::string> pair{candidate, reference};
    if (std::find(pairs.begin(), pairs.end(), pair) == pairs.end()) pairs.push_back(pair);
  };
  for (const PathResult& path : report.paths) add(path.name, report.baseline);
  for (const auto& [candidate, reference] : report.comparisons) add(candidate, reference);
  return pairs;
}

std::vector<std::string> findings(const BenchReport& report) {
  std::vector<std::string> found;
  for (const PathResult& result : report.paths) {
    if (!result.validity.valid && !result.negative_control)
      found.push_back(result.name + " is INVALID");
    if (result.validity.valid && result.negative_control)
      found.push_back(result.name + " is a negative control but passed every gate");
  }
  return found;
}

}  // namespace layoutcheck
