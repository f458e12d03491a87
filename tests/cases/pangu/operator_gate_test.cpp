// The operator gate's host pieces: its inputs cover what the gate promises, the references
// propagate inf and NaN through a LayerNorm row, and the comparison allows 2 fp16 ulp on
// LayerNorms, nothing on gathers.
#include "cases/pangu/operator_gate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

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
