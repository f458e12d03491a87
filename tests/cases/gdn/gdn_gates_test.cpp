// The gates end to end on CPU models of kernels: the reference rounded to storage types reading
// the flat layout (a correct native kernel), the same reading the interleaved layout while fed flat
// buffers (the upstream kernel wired in unmodified), and runners broken on purpose.
#include "cases/gdn/bench/gdn_gates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "cases/gdn/reference.h"

namespace layoutcheck {
namespace {

using ::testing::HasSubstr;

const GdnShape kShape{2, 6, 8, 8, 4};

class ReferenceModel : public GdnRunner {
 public:
  ReferenceModel(std::string name, GdnLayouts layouts)
      : name_(std::move(name)), reference_(kShape, std::move(layouts)) {}
  std::string name() const override { return name_; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    ++calls;
    return reference_.step(inputs);
  }
  int calls = 0;

 private:
  std::string name_;
  GdnReference reference_;
};

GdnGatePlan small_plan() {
  GdnGatePlan plan;
  plan.shape = kShape;
  plan.batches = {1, 3};
  plan.multi_step_batch = 2;
  plan.steps = 40;
  plan.checkpoints = {1, 16, 1024};
  return plan;
}

TEST(GdnGates, ACorrectKernelModelPasses) {
  GdnGateRunner gates(small_plan());
  ReferenceModel native("native model", flat_gdn_layouts(kShape));
  const GateRecord record = gates.check(native);
  ASSERT_EQ(record.reference.size(), 2u);
  for (const ReferenceCheck& check : record.reference) {
    EXPECT_LT(check.output_rel_l2, 1e-2);  // bf16 rounding of the output
    EXPECT_GT(check.output_rel_l2, 0.0);
    EXPECT_LT(check.state_rel_l2, 1e-7);  // fp32 rounding of the state
    EXPECT_TRUE(check.conv_state.equal());
  }
  ASSERT_TRUE(record.multi_step.has_value());
  // Checkpoints past `steps` are dropped and the last step is always checked.
  ASSERT_EQ(record.multi_step->checkpoints.size(), 3u);
  EXPECT_EQ(record.multi_step->checkpoints[0].step, 1);
  EXPECT_EQ(record.multi_step->checkpoints[1].step, 16);
  EXPECT_EQ(record.multi_step->checkpoints[2].step, 40);
  EXPECT_TRUE(record.multi_step->bitwise.at(0).equal());
  EXPECT_TRUE(record.determinism->outputs.equal());
  // 2 batches × 2 runs + 40 steps.
  EXPECT_EQ(native.calls, 44);
  const Validity validity = evaluate_gates(record, GateThresholds{});
  EXPECT_TRUE(validity.valid) << (validity.reasons.empty() ? "" : validity.reasons.front());
}

TEST(GdnGates, TheUpstreamKernelFedFlatBuffersFails) {
  GdnGateRunner gates(small_plan());
  ReferenceModel direct("upstream-direct model", interleaved_gdn_layouts(kShape));
  const GateRecord record = gates.check(direct);
  for (const ReferenceCheck& check : record.reference) {
    EXPECT_GT(check.output_rel_l2, 0.1) << "batch " << check.batch;
    EXPECT_GT(check.state_rel_l2, 1e-3);
  }
  EXPECT_GT(record.multi_step->checkpoints.back().output_rel_l2, 0.1);
  EXPECT_FALSE(evaluate_gates(record, GateThresholds{}).valid);
}

TEST(GdnGates, ReferenceIsComputedOnceForAllPaths) {
  GdnGateRunner gates(small_plan());
  ReferenceModel first("a", flat_gdn_layouts(kShape));
  ReferenceModel second("b", flat_gdn_layouts(kShape));
  const GateRecord one = gates.check(first);
  const GateRecord two = gates.check(second);
  ASSERT_EQ(one.reference.size(), two.reference.size());
  // Identical models on identical inputs: identical errors, bit for bit.
  for (std::size_t i = 0; i < one.reference.size(); ++i)
    EXPECT_EQ(one.reference[i].output_rel_l2, two.reference[i].output_rel_l2);
  EXPECT_EQ(one.multi_step->checkpoints.back().state_rel_l2,
            two.multi_step->checkpoints.back().state_rel_l2);
}

class FlakyModel : public ReferenceModel {
 public:
  FlakyModel() : ReferenceModel("flaky", flat_gdn_layouts(kShape)) {}
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    GdnStepOutputs outputs = ReferenceModel::step(inputs);
    if (calls % 2 == 0) outputs.out[0] ^= 1;  // the second run of a step differs in one bit
    return outputs;
  }
};

TEST(GdnGates, NonDeterminismIsCaught) {
  GdnGateRunner gates(small_plan());
  FlakyModel flaky;
  const GateRecord record = gates.check(flaky);
  EXPECT_EQ(record.determinism->outputs.mismatches, 2);  // one per batch
  EXPECT_THAT(evaluate_gates(record, GateThresholds{}).reasons.front(),
              HasSubstr("determinism across 2 runs"));
}

class ConvStateDropper : public ReferenceModel {
 public:
  ConvStateDropper() : ReferenceModel("drops a tap", flat_gdn_layouts(kShape)) {}
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    GdnStepOutputs outputs = ReferenceModel::step(inputs);
    outputs.conv_state.back() = 0;
    return outputs;
  }
};

TEST(GdnGates, ConvStateMustStayBitwiseEqual) {
  GdnGateRunner gates(small_plan());
  ConvStateDropper dropper;
  const GateRecord record = gates.check(dropper);
  EXPECT_FALSE(record.reference[0].conv_state.equal());
  EXPECT_FALSE(record.multi_step->bitwise[0].equal());
  EXPECT_FALSE(evaluate_gates(record, GateThresholds{}).valid);
}

class FailingRunner : public GdnRunner {
 public:
  std::string name() const override { return "broken"; }
  GdnStepOutputs step(const GdnStepInputs&) override {
    throw std::runtime_error("launch of gdn_decode failed: invalid argument");
  }
};

TEST(GdnGates, ARunnerThatThrowsIsRecordedNotFatal) {
  GdnGateRunner gates(small_plan());
  FailingRunner broken;
  const GateRecord record = gates.check(broken);
  ASSERT_EQ(record.failures.size(), 1u);
  EXPECT_EQ(record.failures[0], "broken failed: launch of gdn_decode failed: invalid argument");
  EXPECT_FALSE(evaluate_gates(record, GateThresholds{}).valid);
}

TEST(GdnGates, RejectsBadPlans) {
  GdnGatePlan plan = small_plan();
  plan.batches = {0};
  EXPECT_THROW(GdnGateRunner{plan}, std::invalid_argument);
  plan = small_plan();
  plan.shape.HV = 5;  // not a multiple of H
  EXPECT_THROW(GdnGateRunner{plan}, std::invalid_argument);
}

TEST(GdnGates, ReportsProgress) {
  std::vector<std::string> lines;
  GdnGateRunner gates(small_plan(), [&](const std::string& line) { lines.push_back(line); });
  ReferenceModel native("native model", flat_gdn_layouts(kShape));
  gates.check(native);
  EXPECT_THAT(lines, ::testing::Contains("native model: 40-step gate, step 40"));
  EXPECT_THAT(lines, ::testing::Contains("native model: reference check at batch 3"));
}

}  // namespace
}  // namespace layoutcheck
