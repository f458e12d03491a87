// One-hot sweeps against CPU models of kernels: a kernel reading the layout it is fed is clean;
// a kernel built for another layout misreads exactly what the static diff says.
#include "cases/gdn/probe/probe_sweep.h"

#include <gtest/gtest.h>

#include "cases/gdn/odd_shape.h"
#include "cases/gdn/reference_runner.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

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
    EXPECT_EQ(verdict.conclusion(), "no layout misread, values differ from the reference");
  }
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// A state too large to probe element by element is probed on a seeded random sample, which the
// verdict names: a kernel that claims [HV,K,V] and reads [HV,V,K] is caught by the sample, one
// that reads what it claims is clean on it.
TEST(ProbeSweep, SampledStateCatchesAClaimTheKernelDoesNotKeep) {
  const GdnShape shape{2, 4, 8, 8, 4};  // 256 state offsets per row
  const GdnLayouts hkv = flat_gdn_layouts(shape, StateOrder::hkv);
  ProbeOptions options = quiet_options();
  options.max_probes = 64;

  ReferenceRunner honest(shape, hkv);
  const ProbeVerdict clean =
      probe_gdn_runner(honest, ProbeTarget{shape, GdnBuffer::state, hkv.state, hkv}, options);
  EXPECT_EQ(clean.probed, 64);
  EXPECT_EQ(clean.offsets, 256);
  EXPECT_GT(clean.placed_by_claim, 0);
  EXPECT_TRUE(clean.clean()) << clean.conclusion();
  EXPECT_NE(clean.conclusion().find("on a random sample: 64 of 256 offsets"), std::string::npos)
      << clean.conclusion();

  // Claims [HV,K,V] (the static diff sees nothing), reads [HV,V,K].
  ReferenceRunner transposed(shape, flat_gdn_layouts(shape, StateOrder::hvk));
  const ProbeVerdict caught =
      probe_gdn_runner(transposed, ProbeTarget{shape, GdnBuffer::state, hkv.state, hkv}, options);
  EXPECT_EQ(caught.static_diff.misread, 0);
  EXPECT_GT(caught.reads.misread, 0) << caught.conclusion();
  EXPECT_FALSE(caught.agrees_with_diff);
  EXPECT_FALSE(caught.clean());
}

}  // namespace
}  // namespace layoutcheck
