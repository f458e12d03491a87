// Pangu's LayerNorm family, CPU side: the reference keeps its digits on a row of mean 1000 and
// spread 0.01, the residual add rounds where the framework rounds (and a kernel adding in fp32
// without rounding is told apart), folding the affine into the next Linear changes nothing a
// model computes, and through the shared probe engine each row reads exactly its own row while
// the width and partial-wave mutants do not.
#include "cases/pangu/layer_norm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "cases/pangu/layer_norm_case.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/probe/case_probe.h"

namespace layoutcheck::pangu {
namespace {

std::vector<fp16_bits> row_of(const std::vector<float>& values) {
  std::vector<fp16_bits> row;
  for (float value : values) row.push_back(float_to_fp16(value));
  return row;
}

TEST(LayerNormReference, KeepsItsDigitsOnALargeMeanAndASmallSpread) {
  // fp16 near 1000 steps by 0.5: a spread of 0.01 is not representable, the steps are; the row
  // alternates 1000 and 1000.5, so the normalised row is exactly -1, +1 (up to epsilon).
  std::vector<float> values(192);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = i % 2 ? 1000.5f : 1000.0f;
  const std::vector<fp16_bits> x = row_of(values);
  std::vector<fp16_bits> out(x.size());
  layer_norm_row(x, out);
  const double expected = 0.25 / std::sqrt(0.0625 + kLayerNormEpsilon);
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_NEAR(fp16_to_float(out[i]), i % 2 ? expected : -expected, 1e-3) << i;
  // A constant row normalises to zero, not NaN.
  std::vector<fp16_bits> constant(192, float_to_fp16(3.0f)), zero(192);
  layer_norm_row(constant, zero);
  for (fp16_bits value : zero) EXPECT_EQ(fp16_to_float(value), 0.0f);
}

TEST(AddLayerNormReference, TheResidualIsRoundedBeforeTheStatistics) {
  // 2048 + 1 is not an fp16 (the step there is 2): the residual written is 2048 (ties to even),
  // and the statistics see 2048, as the framework's fp16 add leaves it.
  std::vector<fp16_bits> residual(192, float_to_fp16(2048.0f)), branch(192, float_to_fp16(0.0f));
  branch[0] = float_to_fp16(1.0f);
  branch[1] = float_to_fp16(3.0f);
  std::vector<fp16_bits> written(192), out(192);
  add_layer_norm_row(residual, branch, written, out);
  EXPECT_EQ(fp16_to_float(written[0]), 2048.0f);
  EXPECT_EQ(fp16_to_float(written[1]), 2052.0f);  // 2051 rounds to 2052
  // Statistics of the exact sums (2049, 2051, 2048, ...) would differ: the rounding point shows.
  std::vector<fp16_bits> exact(192);
  std::vector<float> sums(192, 2048.0f);
  sums[0] = 2049.0f;
  sums[1] = 2051.0f;
  double mean = 0, spread = 0;
  for (float s : sums) mean += s;
  mean /= 192;
  for (float s : sums) spread += (s - mean) * (s - mean);
  const float unrounded =
      static_cast<float>((2048.0 - mean) / std::sqrt(spread / 192 + kLayerNormEpsilon));
  EXPECT_NE(out[2], float_to_fp16(unrounded));
}

TEST(FoldLayerNormAffine, TheFoldedLinearComputesTheSame) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const std::int64_t in = 12, out = 5;
  Linear linear{in, out, std::vector<float>(in * out), std::vector<float>(out)};
  for (float& w : linear.weight) w = uniform(rng);
  for (float& b : linear.bias) b = uniform(rng);
  std::vector<float> gamma(in), beta(in), normalised(in);
  for (std::int64_t i = 0; i < in; ++i) {
    gamma[i] = 0.5f + uniform(rng);
    beta[i] = uniform(rng);
    normalised[i] = uniform(rng);
  }
  const Linear folded = fold_layer_norm_affine(gamma, beta, linear, FoldedRows::normalised_only);
  for (std::int64_t o = 0; o < out; ++o) {
    double with_affine = linear.bias[o], with_fold = folded.bias[o];
    for (std::int64_t i = 0; i < in; ++i) {
      with_affine += linear.weight[o * in + i] * (gamma[i] * normalised[i] + beta[i]);
      with_fold += folded.weight[o * in + i] * normalised[i];
    }
    EXPECT_NEAR(with_fold, with_affine, 1e-5) << o;
  }
  constexpr FoldedRows kOnly = FoldedRows::normalised_only;
  EXPECT_THROW(fold_layer_norm_affine(std::vector<float>(3), beta, linear, kOnly),
               std::invalid_argument);
  Linear short_weight = linear;
  short_weight.weight.pop_back();
  EXPECT_THROW(fold_layer_norm_affine(gamma, beta, short_weight, kOnly), std::invalid_argument);
  Linear long_bias = linear;
  long_bias.bias.push_back(0);
  EXPECT_THROW(fold_layer_norm_affine(gamma, beta, long_bias, kOnly), std::invalid_argument);

  // A zero row written after the norm (a padding slot of the windows) is not a LayerNorm output:
  // without the fold it projects to b, with it to W beta + b.
  for (std::int64_t o = 0; o < out; ++o) {
    double w_beta = 0;
    for (std::int64_t i = 0; i < in; ++i) w_beta += linear.weight[o * in + i] * beta[i];
    EXPECT_NEAR(folded.bias[o], linear.bias[o] + w_beta, 1e-5) << o;
    EXPECT_GT(std::abs(folded.bias[o] - linear.bias[o]), 1e-3) << o;
  }
  // So ahead of padding the fold is refused, unless beta is 0, where it changes no bias.
  constexpr FoldedRows kPadded = FoldedRows::with_padding_after_the_norm;
  EXPECT_THROW(fold_layer_norm_affine(gamma, beta, linear, kPadded), std::invalid_argument);
  const std::vector<float> no_beta(in, 0.0f);
  const Linear exact = fold_layer_norm_affine(gamma, no_beta, linear, kPadded);
  EXPECT_EQ(exact.bias, linear.bias);
}

CaseLayouts layouts(std::int64_t width) {
  LoadOptions options;
  options.overrides = {{"C", width}};
  const std::string folder = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/";
  return {{"x", load_contract(folder + "tokens.yaml", options)},
          {"out", load_contract(folder + "tokens.out.yaml", options)}};
}

CaseVerdict probe(CaseRunner& runner, const CaseLayouts& given) {
  CaseProbeRequest request;
  request.buffer = "x";
  request.model = given;
  request.claimed = given;
  request.rows = 3;
  return probe_case(*make_pangu_layer_norm_case(), runner, kDependenceDecoder, request);
}

TEST(LayerNormCase, EachRowReadsExactlyItsOwnRow) {
  for (std::int64_t width : {192, 384}) {
    const CaseLayouts given = layouts(width);
    const auto reference = make_pangu_layer_norm_case()->reference(given);
    const CaseVerdict verdict = probe(*reference, given);
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
}

TEST(LayerNormCase, TheWidthAndPartialWaveMutantsAreCaught) {
  const auto subject = make_pangu_layer_norm_case();
  const CaseLayouts given = layouts(192);
  for (const char* name : {"rows_as_pairs", "partial_wave_dropped"}) {
    SCOPED_TRACE(name);
    const auto mutant = subject->mutant(name, given);
    const CaseVerdict verdict = probe(*mutant, given);
    EXPECT_FALSE(verdict.clean());
    EXPECT_GT(verdict.dependence_mismatches, 0) << case_verdict_text(verdict);
  }
}

}  // namespace
}  // namespace layoutcheck::pangu
