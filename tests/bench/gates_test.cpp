#include "layoutcheck/bench/gates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "bench/synthetic_report.h"

namespace layoutcheck {
namespace {

using layoutcheck::testing::misreading_gates;
using layoutcheck::testing::passing_gates;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Gates, AllPassingIsValid) {
  const Validity validity = evaluate_gates(passing_gates({1, 64}), GateThresholds{});
  EXPECT_TRUE(validity.valid);
  EXPECT_TRUE(validity.reasons.empty());
}

TEST(Gates, OutputErrorAboveTheBoundFails) {
  GateRecord gates = passing_gates({1, 64});
  gates.reference[1].output_rel_l2 = 1.41;
  const Validity validity = evaluate_gates(gates, GateThresholds{});
  EXPECT_FALSE(validity.valid);
  EXPECT_THAT(validity.reasons,
              ElementsAre("reference check, batch 64: output rel L2 1.41e+00 > 1.00e-02"));
}

TEST(Gates, BoundsAreInclusive) {
  GateRecord gates = passing_gates({1});
  gates.reference[0].output_rel_l2 = 1e-2;
  gates.reference[0].state_rel_l2 = 1e-5;
  EXPECT_TRUE(evaluate_gates(gates, GateThresholds{}).valid);
  gates.reference[0].state_rel_l2 = 1.01e-5;
  EXPECT_FALSE(evaluate_gates(gates, GateThresholds{}).valid);
}

TEST(Gates, NanFailsEveryThreshold) {
  GateRecord gates = passing_gates({1});
  gates.reference[0].state_rel_l2 = std::nan("");
  const Validity validity = evaluate_gates(gates, GateThresholds{});
  EXPECT_FALSE(validity.valid);
  EXPECT_THAT(validity.reasons, ElementsAre(HasSubstr("state rel L2 nan")));
}

TEST(Gates, ConvStateMustBeBitwiseEqual) {
  GateRecord gates = passing_gates({3});
  gates.reference[0].conv_state.mismatches = 1;
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("reference check, batch 3: conv state not bitwise equal (1 of 92160 "
                          "elements differ)"));
}

TEST(Gates, ABitwiseCheckOverNothingIsNotAPass) {
  GateRecord gates = passing_gates({1});
  gates.reference[0].conv_state = {"conv state", 0, 0};
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre(HasSubstr("conv state was not compared")));
}

TEST(Gates, APathNeverCheckedIsInvalid) {
  GateRecord gates = passing_gates({1});
  gates.reference.clear();
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("not checked against the fp64 reference"));
}

TEST(Gates, MultiStepCheckpointsUseTheirOwnBounds) {
  GateRecord gates = passing_gates({1});
  gates.multi_step->checkpoints[2].state_rel_l2 = 9e-6;
  EXPECT_TRUE(evaluate_gates(gates, GateThresholds{}).valid);
  gates.multi_step->checkpoints[1].state_rel_l2 = 2e-5;
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("1024-step gate, step 256: state rel L2 2.00e-05 > 1.00e-05"));
  GateThresholds drift;  // a reviewed, documented drift
  drift.multi_step_state_rel_l2 = 1e-4;
  EXPECT_TRUE(evaluate_gates(gates, drift).valid);
}

TEST(Gates, MultiStepBitwiseChecksFail) {
  GateRecord gates = passing_gates({1});
  gates.multi_step->bitwise.push_back({"Z pass-through", 6144, 6144});
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("1024-step gate: Z pass-through not bitwise equal (6144 of 6144 "
                          "elements differ)"));
}

TEST(Gates, MissingMultiStepAndDeterminismFailOnlyWhenRequired) {
  GateRecord gates = passing_gates({1});
  gates.multi_step.reset();
  gates.determinism.reset();
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("multi-step gate did not run", "determinism gate did not run"));
  GateThresholds relaxed;
  relaxed.require_multi_step = false;
  relaxed.require_determinism = false;
  EXPECT_TRUE(evaluate_gates(gates, relaxed).valid);
}

TEST(Gates, OverlappedLaunchesThatChangeTheResultFail) {
  GateRecord gates = passing_gates({1});
  gates.overlapped_launches = BitwiseCheck{"out, state and conv state of 4 layers", 1000, 3};
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("overlapped launches: out, state and conv state of 4 layers not bitwise "
                          "equal (3 of 1000 elements differ)"));
  gates.overlapped_launches->mismatches = 0;
  EXPECT_TRUE(evaluate_gates(gates, GateThresholds{}).valid);
}

TEST(Gates, AMissingOverlappedLaunchGateFailsOnlyWhenRequired) {
  const GateRecord gates = passing_gates({1});
  EXPECT_TRUE(evaluate_gates(gates, GateThresholds{}).valid);
  GateThresholds overlapped;
  overlapped.require_overlapped_launches = true;
  EXPECT_THAT(evaluate_gates(gates, overlapped).reasons,
              ElementsAre("overlapped-launch gate did not run"));
}

TEST(Gates, NonDeterminismFails) {
  GateRecord gates = passing_gates({1});
  gates.determinism->outputs.mismatches = 17;
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre(HasSubstr("determinism across 2 runs: outputs, state, conv state not "
                                    "bitwise equal (17 of")));
}

TEST(Gates, MisreadsFromTheProbesFail) {
  GateRecord gates = passing_gates({1});
  gates.probe->misread = 12;
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("GPU probe: 12 of 16480 elements misread"));
}

TEST(Gates, RecordedFailuresComeFirst) {
  GateRecord gates = passing_gates({1});
  gates.failures.push_back("launch of gdn_native failed: invalid argument");
  EXPECT_THAT(evaluate_gates(gates, GateThresholds{}).reasons,
              ElementsAre("launch of gdn_native failed: invalid argument"));
}

TEST(Gates, TheNegativeControlFailsForEveryReason) {
  const Validity validity = evaluate_gates(misreading_gates({1, 64}), GateThresholds{});
  EXPECT_FALSE(validity.valid);
  EXPECT_EQ(validity.reasons.front(), "GPU probe: 16128 of 16480 elements misread");
  // probe + 2 batches × (output, state, conv state) + 3 checkpoints × 2 + conv state bitwise
  EXPECT_EQ(validity.reasons.size(), 1u + 6u + 6u + 1u);
}

TEST(FormatError, ScientificWithNan) {
  EXPECT_EQ(format_error(4.1e-4), "4.10e-04");
  EXPECT_EQ(format_error(std::nan("")), "nan");
  EXPECT_EQ(format_error(0.0), "0.00e+00");
}

}  // namespace
}  // namespace layoutcheck
