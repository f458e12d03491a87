// Summary statistics of timing samples: the median with the 10th and 90th percentiles as the
// spread, as the report prints them ("3.21 µs [3.18–3.30]").
#pragma once

#include <cstddef>
#include <vector>

namespace layoutcheck {

struct Summary {
  std::size_t count = 0;
  double median = 0;
  double p10 = 0;
  double p90 = 0;
  double min = 0;
  double max = 0;
};

// The q-quantile (0 <= q <= 1) of samples by linear interpolation between closest ranks (the
// usual "type 7" definition): quantile({1, 2, 3, 4}, 0.5) == 2.5, quantile({1, 2, 3, 4}, 0.1)
// == 1.3.
// @pre samples is not empty and holds no NaN (else std::invalid_argument); 0 <= q <= 1.
double quantile(std::vector<double> samples, double q);

// @pre samples is not empty and holds no NaN (else std::invalid_argument).
Summary summarize(const std::vector<double>& samples);

}  // namespace layoutcheck
