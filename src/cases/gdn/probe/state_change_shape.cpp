#include "cases/gdn/probe/state_change_shape.h"

#include <cmath>
#include <vector>

namespace layoutcheck {
namespace {

// Sum of squared deviations of delta from its row means (along v), or column means (along k).
double spread(std::span<const double> delta, std::int64_t K, std::int64_t V, bool along_v) {
  const std::int64_t lines = along_v ? K : V, length = along_v ? V : K;
  double total = 0;
  for (std::int64_t line = 0; line < lines; ++line) {
    auto at = [&](std::int64_t i) { return along_v ? delta[line * V + i] : delta[i * V + line]; };
    double mean = 0;
    for (std::int64_t i = 0; i < length; ++i) mean += at(i);
    mean /= static_cast<double>(length);
    for (std::int64_t i = 0; i < length; ++i) total += (at(i) - mean) * (at(i) - mean);
  }
  return total;
}

// Sum of squared residuals of every row after projecting it on the largest row.
double rank_one_residual(std::span<const double> delta, std::int64_t K, std::int64_t V) {
  std::int64_t largest = 0;
  double largest_square = -1;
  for (std::int64_t k = 0; k < K; ++k) {
    double square = 0;
    for (std::int64_t v = 0; v < V; ++v) square += delta[k * V + v] * delta[k * V + v];
    if (square > largest_square) {
      largest_square = square;
      largest = k;
    }
  }
  if (largest_square <= 0) return 0;
  const double* w = delta.data() + largest * V;
  double total = 0;
  for (std::int64_t k = 0; k < K; ++k) {
    const double* row = delta.data() + k * V;
    double dot = 0;
    for (std::int64_t v = 0; v < V; ++v) dot += row[v] * w[v];
    const double alpha = dot / largest_square;
    for (std::int64_t v = 0; v < V; ++v) total += (row[v] - alpha * w[v]) * (row[v] - alpha * w[v]);
  }
  return total;
}

}  // namespace

std::optional<StateChange> classify_state_change(std::span<const double> delta, std::int64_t K,
                                                 std::int64_t V, double slack) {
  double square = 0;
  for (double value : delta) square += value * value;
  if (!(square > slack * slack) || !std::isfinite(square)) return std::nullopt;
  const double allowed = slack * slack;
  if ((V > 1 && spread(delta, K, V, true) <= allowed) ||
      (K > 1 && spread(delta, K, V, false) <= allowed))
    return StateChange::decay_like;
  if (rank_one_residual(delta, K, V) <= allowed) return StateChange::update_like;
  return std::nullopt;
}

std::optional<StateLine> single_changed_line(std::span<const double> delta, std::int64_t K,
                                             std::int64_t V) {
  std::int64_t column = -1, row = -1;
  bool one_column = true, one_row = true;
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t v = 0; v < V; ++v) {
      if (delta[k * V + v] == 0) continue;
      if (column < 0) {
        column = v;
        row = k;
      }
      one_column = one_column && v == column;
      one_row = one_row && k == row;
    }
  if (column < 0) return std::nullopt;
  if (one_column) return StateLine{true, column};
  if (one_row) return StateLine{false, row};
  return std::nullopt;
}

}  // namespace layoutcheck
