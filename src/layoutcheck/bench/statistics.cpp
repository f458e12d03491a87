#include "layoutcheck/bench/statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace layoutcheck {

namespace {

void require_usable(const std::vector<double>& samples) {
  if (samples.empty()) throw std::invalid_argument("statistics: no samples");
  for (double sample : samples)
    if (std::isnan(sample)) throw std::invalid_argument("statistics: a sample is NaN");
}

// @pre sorted is sorted ascending and not empty.
double sorted_quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  // An exact rank is returned as is: 0 × (inf − x) would be NaN beside an infinite sample.
  if (fraction == 0.0) return sorted[below];
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace

double quantile(std::vector<double> samples, double q) {
  require_usable(samples);
  if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("statistics: quantile outside [0, 1]");
  std::sort(samples.begin(), samples.end());
  return sorted_quantile(samples, q);
}

Summary summarize(const std::vector<double>& samples) {
  require_usable(samples);
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  Summary summary;
  summary.count = sorted.size();
  summary.median = sorted_quantile(sorted, 0.5);
  summary.p10 = sorted_quantile(sorted, 0.1);
  summary.p90 = sorted_quantile(sorted, 0.9);
  summary.min = sorted.front();
  summary.max = sorted.back();
  return summary;
}

}  // namespace layoutcheck
