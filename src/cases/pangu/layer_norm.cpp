#include "cases/pangu/layer_norm.h"

#include <cmath>
#include <stdexcept>

namespace layoutcheck::pangu {

void layer_norm_row(std::span<const fp16_bits> x, std::span<fp16_bits> out) {
  const auto width = static_cast<double>(x.size());
  double mean = 0;
  for (fp16_bits value : x) mean += fp16_to_float(value);
  mean /= width;
  double spread = 0;
  for (fp16_bits value : x) {
    const double d = fp16_to_float(value) - mean;
    spread += d * d;
  }
  const double inverse = 1.0 / std::sqrt(spread / width + kLayerNormEpsilon);
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = float_to_fp16(static_cast<float>((fp16_to_float(x[i]) - mean) * inverse));
}

void add_layer_norm_row(std::span<const fp16_bits> residual, std::span<const fp16_bits> branch,
                        std::span<fp16_bits> residual_out, std::span<fp16_bits> out) {
  for (std::size_t i = 0; i < residual.size(); ++i)
    residual_out[i] = float_to_fp16(fp16_to_float(residual[i]) + fp16_to_float(branch[i]));
  layer_norm_row(residual_out, out);
}

std::vector<fp16_bits> layer_norm_rows(std::span<const fp16_bits> x, std::int64_t width) {
  const auto w = static_cast<std::size_t>(width);
  std::vector<fp16_bits> out(x.size());
  for (std::size_t r = 0; r < x.size() / w; ++r)
    layer_norm_row(x.subspan(r * w, w), std::span(out).subspan(r * w, w));
  return out;
}

AddLayerNormRows add_layer_norm_rows(std::span<const fp16_bits> residual,
                                     std::span<const fp16_bits> branch, std::int64_t width) {
  const auto w = static_cast<std::size_t>(width);
  AddLayerNormRows rows{std::vector<fp16_bits>(residual.size()),
                        std::vector<fp16_bits>(residual.size())};
  for (std::size_t r = 0; r < residual.size() / w; ++r)
    add_layer_norm_row(residual.subspan(r * w, w), branch.subspan(r * w, w),
                       std::span(rows.residual_out).subspan(r * w, w),
                       std::span(rows.out).subspan(r * w, w));
  return rows;
}

Linear fold_layer_norm_affine(std::span<const float> gamma, std::span<const float> beta,
                              const Linear& linear, FoldedRows rows) {
  if (static_cast<std::int64_t>(gamma.size()) != linear.in ||
      static_cast<std::int64_t>(beta.size()) != linear.in)
    throw std::invalid_argument("fold_layer_norm_affine: gamma and beta must have the Linear's " +
                                std::to_string(linear.in) + " inputs");
  if (linear.in <= 0 || linear.out <= 0 ||
      linear.weight.size() != static_cast<std::size_t>(linear.in) *
                                  static_cast<std::size_t>(linear.out) ||
      linear.bias.size() != static_cast<std::size_t>(linear.out))
    throw std::invalid_argument("fold_layer_norm_affine: a Linear of " +
                                std::to_string(linear.in) + " inputs and " +
                                std::to_string(linear.out) + " outputs needs a weight of " +
                                "out x in and a bias of out entries");
  if (rows == FoldedRows::with_padding_after_the_norm)
    for (std::size_t i = 0; i < beta.size(); ++i)
      if (beta[i] != 0.0f)
        throw std::invalid_argument(
            "fold_layer_norm_affine: beta[" + std::to_string(i) +
            "] is not 0, and the Linear also reads padding written after the norm: folded, a "
            "padding row would project to W beta + b instead of b (apply the affine before the "
            "padding instead)");
  Linear folded = linear;
  for (std::int64_t o = 0; o < linear.out; ++o) {
    double shift = linear.bias[static_cast<std::size_t>(o)];
    for (std::int64_t i = 0; i < linear.in; ++i) {
      const auto at = static_cast<std::size_t>(o * linear.in + i);
      folded.weight[at] = linear.weight[at] * gamma[static_cast<std::size_t>(i)];
      shift += static_cast<double>(linear.weight[at]) * beta[static_cast<std::size_t>(i)];
    }
    folded.bias[static_cast<std::size_t>(o)] = static_cast<float>(shift);
  }
  return folded;
}

}  // namespace layoutcheck::pangu
