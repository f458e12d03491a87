// One-hot sweeps against CPU models of kernels: a kernel reading the layout it is fed is clean;
// a kernel built for another layout misreads exactly what the static diff says.
#include "cases/gdn/probe/probe_sweep.h"

#include <gtest/gtest.h>

#include "cases/gdn/reference_runner.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

const GdnShape kOdd{3, 9, 5, 7, 4};

ProbeOptions quiet_options(std::uint64_t seed = 1) {
  ProbeOptions options;
  options.seed = seed;
  return options;
}

TEST(ProbeSweep, KernelReadingItsOwnLayoutIsClean) {
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state}) {
    SCOPED_TRACE(std::string(gdn_buffer_name(buffer)));
    const GdnLayouts layouts = flat_gdn_layouts(kOdd);
    ReferenceRunner kernel(kOdd, layouts);
    const ProbeTarget target{kOdd, buffer, layout_of(layouts, buffer), layouts};
    const ProbeVerdict verdict = probe_gdn_runner(kernel, target, quiet_options());
    EXPECT_TRUE(verdict.clean()) << verdict.conclusion() << "\n"
                                 << (verdict.unresolved_details.empty()
                                         ? ""
                                         : verdict.unresolved_details[0]);
    EXPECT_EQ(verdict.reads.misread, 0);
    EXPECT_EQ(verdict.reads.unresolved, 0);
    EXPECT_TRUE(verdict.agrees_with_diff);
    EXPECT_EQ(verdict.probed, layout_of(layouts, buffer).row_size);
  }
}

TEST(ProbeSweep, InterleavedKernelFedFlatBuffersMisreadsExactlyWhatTheDiffSays) {
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba}) {
    SCOPED_TRACE(std::string(gdn_buffer_name(buffer)));
    const GdnLayouts upstream = interleaved_gdn_layouts(kOdd);
    const GdnLayouts flat = flat_gdn_layouts(kOdd);
    ReferenceRunner kernel(kOdd, upstream);
    const ProbeTarget target{kOdd, buffer, layout_of(flat, buffer), upstream};
    const ProbeVerdict verdict = probe_gdn_runner(kernel, target, quiet_options());
    EXPECT_GT(verdict.reads.misread, 0);
    EXPECT_EQ(verdict.reads.unresolved, 0)
        << (verdict.unresolved_details.empty() ? "" : verdict.unresolved_details[0]);
    EXPECT_TRUE(verdict.agrees_with_diff);
    EXPECT_EQ(verdict.reads.misread, verdict.static_diff.misread);
    EXPECT_TRUE(verdict.values.passed) << verdict.values.detail;
    EXPECT_FALSE(verdict.clean());
  }
}

TEST(ProbeSweep, TransposedStateIsFoundWhereTheDiffSays) {
  const GdnLayouts hvk = flat_gdn_layouts(kOdd, StateOrder::hvk);
  const GdnLayouts hkv = flat_gdn_layouts(kOdd, StateOrder::hkv);
  ReferenceRunner kernel(kOdd, hvk);
  const ProbeTarget target{kOdd, GdnBuffer::state, hkv.state, hvk};
  const ProbeVerdict verdict = probe_gdn_runner(kernel, target, quiet_options());
  EXPECT_EQ(verdict.reads.unresolved, 0)
      << (verdict.unresolved_details.empty() ? "" : verdict.unresolved_details[0]);
  EXPECT_TRUE(verdict.agrees_with_diff);
  EXPECT_EQ(verdict.reads.misread, verdict.static_diff.misread);
}

// A kernel that leaves the conv state as it found it: no element is named by the conv state, so
// every one must be found by prediction alone.
class ConvStateUntouched : public GdnRunner {
 public:
  ConvStateUntouched(const GdnShape& shape, const GdnLayouts& layouts) : inner_(shape, layouts) {}
  std::string name() const override { return "kernel leaving the conv state alone"; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    GdnStepOutputs outputs = inner_.step(inputs);
    outputs.conv_state = inputs.conv_state;
    return outputs;
  }

 private:
  ReferenceRunner inner_;
};

TEST(ProbeSweep, WithoutConvStateEvidenceEveryElementIsFoundByPrediction) {
  for (const GdnLayouts& layouts : {flat_gdn_layouts(kOdd), interleaved_gdn_layouts(kOdd)}) {
    SCOPED_TRACE(layouts.qkvz.name);
    ConvStateUntouched kernel(kOdd, layouts);
    const ProbeVerdict verdict = probe_gdn_runner(
        kernel, ProbeTarget{kOdd, GdnBuffer::qkvz, layouts.qkvz, layouts}, quiet_options());
    EXPECT_TRUE(verdict.layout_ok()) << verdict.conclusion();
    EXPECT_EQ(verdict.value_deviations, 0);
    EXPECT_FALSE(verdict.values.conv_state_exact);
    EXPECT_EQ(verdict.conclusion(), "no layout misread, values differ");
  }
}

}  // namespace
}  // namespace layoutcheck
