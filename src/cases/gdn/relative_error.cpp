#include "cases/gdn/relative_error.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace layoutcheck {
namespace {

template <class Actual, class Expected, class ToDouble>
double relative_l2_of(std::span<const Actual> actual, std::span<const Expected> expected,
                      ToDouble to_double) {
  if (actual.size() != expected.size())
    throw std::invalid_argument("relative_l2: " + std::to_string(actual.size()) + " vs " +
                                std::to_string(expected.size()) + " values");
  double difference = 0, norm = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double a = to_double(actual[i]);
    const double e = static_cast<double>(expected[i]);
    difference += (a - e) * (a - e);
    norm += e * e;
  }
  if (!std::isfinite(difference) || !std::isfinite(norm))
    return std::numeric_limits<double>::infinity();
  if (norm == 0) return difference == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(difference / norm);
}

double same(double value) {
  return value;
}
double from_bf16(bf16_bits value) {
  return bf16_to_float(value);
}

}  // namespace

double relative_l2(std::span<const double> actual, std::span<const double> expected) {
  return relative_l2_of(actual, expected, same);
}
double relative_l2(std::span<const float> actual, std::span<const double> expected) {
  return relative_l2_of(actual, expected, same);
}
double relative_l2(std::span<const bf16_bits> actual, std::span<const double> expected) {
  return relative_l2_of(actual, expected, from_bf16);
}
double relative_l2(std::span<const float> actual, std::span<const float> expected) {
  return relative_l2_of(actual, expected, same);
}

std::vector<double> widen(std::span<const float> values) {
  return std::vector<double>(values.begin(), values.end());
}

}  // namespace layoutcheck
