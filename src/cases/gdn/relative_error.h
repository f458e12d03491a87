// How far a result is from the reference: relative L2 error ||actual - expected|| / ||expected||
// (0 when both are zero, infinity when only expected is zero or a value is not finite).
#pragma once

#include <span>
#include <vector>

#include "layoutcheck/platform/bf16.h"

namespace layoutcheck {

double relative_l2(std::span<const double> actual, std::span<const double> expected);
double relative_l2(std::span<const float> actual, std::span<const double> expected);
double relative_l2(std::span<const bf16_bits> actual, std::span<const double> expected);
double relative_l2(std::span<const float> actual, std::span<const float> expected);

// Widening copies, for comparisons in fp64.
std::vector<double> widen(std::span<const float> values);

}  // namespace layoutcheck
