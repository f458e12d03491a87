// Pangu's LayerNorm family as the framework computes it, the reference the kernels are held to:
// rows of C fp16 channels, statistics over the row, no affine (gamma and beta folded into the
// next Linear at load, fold_layer_norm_affine), fp16 out. The residual add keeps the framework's
// rounding point: the residual written is fp16(residual + branch), and the statistics are taken
// of that rounded value, not of the exact sum.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "layoutcheck/platform/fp16.h"

namespace layoutcheck::pangu {

inline constexpr double kLayerNormEpsilon = 1e-5;  // torch.nn.LayerNorm's default

// Statistics in fp64, two passes (mean, then the spread about it): exact enough that a row with
// mean 1000 and spread 0.01 keeps its digits.
void layer_norm_row(std::span<const fp16_bits> x, std::span<fp16_bits> out);

// residual_out = fp16(float(residual) + float(branch)), element by element, as a framework's
// fp16 add rounds; out = layer_norm_row(residual_out).
void add_layer_norm_row(std::span<const fp16_bits> residual, std::span<const fp16_bits> branch,
                        std::span<fp16_bits> residual_out, std::span<fp16_bits> out);

// Every row of `width` channels of x (rows one after another), as layer_norm_row and
// add_layer_norm_row normalise one. @pre the sizes are multiples of width.
std::vector<fp16_bits> layer_norm_rows(std::span<const fp16_bits> x, std::int64_t width);
struct AddLayerNormRows {
  std::vector<fp16_bits> residual_out, out;
};
AddLayerNormRows add_layer_norm_rows(std::span<const fp16_bits> residual,
                                     std::span<const fp16_bits> branch, std::int64_t width);

// y = W (gamma * n + beta) + b = (W diag(gamma)) n + (W beta + b): the affine of a LayerNorm
// moved into the Linear that reads it. weight is [out][in] row-major, as torch.nn.Linear's.
struct Linear {
  std::int64_t in = 0, out = 0;
  std::vector<float> weight;  // [out][in]
  std::vector<float> bias;    // [out]
};
// What the Linear reads: LayerNorm outputs only (norm2 -> the MLP), or also zero rows written
// after the norm (norm1 -> a padded window gather -> qkv), which the fold cannot keep: such a row
// projects to b without it and to W beta + b with it.
enum class FoldedRows { normalised_only, with_padding_after_the_norm };

// @post throws std::invalid_argument unless gamma and beta have linear.in entries, the weight
//       linear.out x linear.in and the bias linear.out; and, with padding after the norm, unless
//       beta is 0 (then the fold is exact there too): the padding's keys and values would change
//       silently; the affine belongs before the padding there.
Linear fold_layer_norm_affine(std::span<const float> gamma, std::span<const float> beta,
                              const Linear& linear, FoldedRows rows);

}  // namespace layoutcheck::pangu
