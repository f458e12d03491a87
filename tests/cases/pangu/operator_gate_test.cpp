// The operator gate's host pieces: its inputs cover what the gate promises, the references
// propagate inf and NaN through a LayerNorm row, the large-mean rows fail one-pass statistics,
// and the comparison allows 2 fp16 ulp on LayerNorms, nothing on gathers.
#include "cases/pangu/operator_gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace layoutcheck::pangu {
namespace {

const std::vector<OperatorGateInput>& inputs() {
  static const auto all = operator_gate_inputs(LAYOUTCHECK_CONTRACTS_DIR);
  return all;
}

const OperatorGateInput& find(const std::string& subject) {
  for (const OperatorGateInput& input : inputs())
    if (input.subject() == subject) return input;
  throw std::runtime_error("no gate input " + subject);
}

TEST(OperatorGate, InputsCoverEveryOperatorInEveryKind) {
  std::set<std::pair<std::string, std::string>> seen;
  std::set<std::string> subjects;
  for (const OperatorGateInput& input : inputs()) {
    seen.insert({operator_name(input.call.op), input.kind});
    EXPECT_TRUE(subjects.insert(input.subject()).second) << "twice: " << input.subject();
    if (input.kind == "illegal") EXPECT_FALSE(input.refusal.empty()) << input.subject();
  }
  for (const char* op : {"layernorm", "add-layernorm", "gather", "reverse", "layernorm-gather"})
    for (const char* kind : {"valid", "boundary", "illegal"})
      EXPECT_TRUE(seen.contains({op, kind})) << op << " has no " << kind << " input";
}

TEST(OperatorGate, InfAndNanPropagateThroughALayerNormRow) {
  const OperatorGateInput& input = find("layernorm fp16 [1,4096,192]: values, inf and NaN");
  const auto values = gate_input_values(input);
  const auto want = gate_reference_outputs(input, values);
  for (std::int64_t r = 0; r < 4096; ++r)
    for (std::int64_t c = 0; c < 192; ++c)
      ASSERT_TRUE(std::isnan(fp16_to_float(want[0][static_cast<std::size_t>(r * 192 + c)])))
          << "row " << r << " channel " << c;
}

// Sum and sum of squares in one fp32 pass: the statistics the large-mean rows exist to catch.
std::vector<fp16_bits> one_pass_layer_norm(const std::vector<fp16_bits>& x, std::int64_t width) {
  std::vector<fp16_bits> out(x.size());
  for (std::size_t row = 0; row < x.size() / static_cast<std::size_t>(width); ++row) {
    const std::size_t first = row * static_cast<std::size_t>(width);
    float sum = 0, squares = 0;
    for (std::int64_t c = 0; c < width; ++c) {
      const float v = fp16_to_float(x[first + static_cast<std::size_t>(c)]);
      sum += v;
      squares += v * v;
    }
    const float mean = sum / static_cast<float>(width);
    const float variance = std::max(squares / static_cast<float>(width) - mean * mean, 0.0f);
    for (std::int64_t c = 0; c < width; ++c) {
      const std::size_t i = first + static_cast<std::size_t>(c);
      out[i] = float_to_fp16((fp16_to_float(x[i]) - mean) / std::sqrt(variance + 1e-5f));
    }
  }
  return out;
}

TEST(OperatorGate, TheLargeMeanRowsCatchOnePassStatistics) {
  for (const std::int64_t width : {192, 384, 768})
    for (const char* values :
         {"mean 1000, spread 0.5 (fp16's finest there)", "mean 12, spread 0.01"}) {
      const std::string subject =
          "layernorm fp16 [1,4096," + std::to_string(width) + "]: values, " + values;
      SCOPED_TRACE(subject);
      const OperatorGateInput& input = find(subject);
      const auto x = gate_input_values(input);
      const auto want = gate_reference_outputs(input, x);
      EXPECT_EQ(compare_gate_outputs(input, want, want).outcome, GateOutcome::passed);
      const std::vector<std::vector<fp16_bits>> one_pass{one_pass_layer_norm(x[0], width)};
      EXPECT_EQ(compare_gate_outputs(input, one_pass, want).outcome, GateOutcome::failed);
    }
  // "Mean 1000, spread 0.01" is a constant row once in fp16 (its step there is
  // 0.5): it checks the epsilon and the zero output, not the statistics.
  const auto constant =
      gate_input_values(find("layernorm fp16 [1,4096,192]: values, mean 1000, spread 0.01 (a "
                             "constant row in fp16)"));
  EXPECT_EQ(std::set<fp16_bits>(constant[0].begin(), constant[0].end()).size(), 1u);
}

TEST(OperatorGate, ComparisonAllowsTwoUlpOnLayerNormsAndNothingOnGathers) {
  const OperatorGateInput& norm = find("layernorm fp16 [1,5,192]: 5 rows");
  const auto values = gate_input_values(norm);
  auto want = gate_reference_outputs(norm, values);
  EXPECT_EQ(compare_gate_outputs(norm, want, want).outcome, GateOutcome::passed);
  auto got = want;
  got[0][7] = static_cast<fp16_bits>(got[0][7] + 1);  // one ulp
  EXPECT_EQ(compare_gate_outputs(norm, got, want).outcome, GateOutcome::passed);
  got[0][7] = static_cast<fp16_bits>(want[0][7] + 4);  // four
  const GateCheck failed = compare_gate_outputs(norm, got, want);
  EXPECT_EQ(failed.outcome, GateOutcome::failed);
  EXPECT_NE(failed.detail.find("1 of 960 elements beyond 2 fp16 ulp"), std::string::npos)
      << failed.detail;

  const OperatorGateInput& gather = find("gather fp16 [1,144,192]: grid (2, 6, 12) shifted");
  const auto tokens = gate_input_values(gather);
  auto moved = gate_reference_outputs(gather, tokens);
  EXPECT_EQ(compare_gate_outputs(gather, moved, moved).outcome, GateOutcome::passed);
  auto off = moved;
  off[0][3] ^= 1;
  EXPECT_EQ(compare_gate_outputs(gather, off, moved).outcome, GateOutcome::failed);
  // Another NaN payload is still NaN; a number where NaN belongs is not.
  moved[0][5] = 0x7e00;
  off = moved;
  off[0][5] = 0x7fff;
  EXPECT_EQ(compare_gate_outputs(gather, off, moved).outcome, GateOutcome::passed);
  off[0][5] = 0x3c00;
  EXPECT_EQ(compare_gate_outputs(gather, off, moved).outcome, GateOutcome::failed);
}

}  // namespace
}  // namespace layoutcheck::pangu
