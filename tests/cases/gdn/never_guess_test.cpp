// A response that matches no candidate is unresolved, one that matches several is ambiguous: the
// probes report both as such and never pick one.
#include <gtest/gtest.h>

#include "cases/gdn/reference.h"
#include "cases/gdn/reference_runner.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/probe/probe_sweep.h"

namespace layoutcheck {
namespace {

const GdnShape kGuessShape{2, 4, 6, 6, 3};

// A kernel that feeds each value head the mean of its b and a as both: no single element (nor
// the pair) explains what a probe of either does.
class BlendingKernel : public GdnRunner {
 public:
  explicit BlendingKernel(const GdnLayouts& layouts) : reference_(kGuessShape, layouts) {}
  std::string name() const override { return "blending kernel"; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    GdnStepInputs blended = inputs;
    const Contract& ba = reference_.layouts().ba;
    for (std::int64_t row = 0; row < inputs.batch; ++row)
      for (std::int64_t hv = 0; hv < kGuessShape.HV; ++hv) {
        bf16_bits& b = blended.ba[row * inputs.ba_row_stride + ba.fields[0].offset_of_linear(hv)];
        bf16_bits& a = blended.ba[row * inputs.ba_row_stride + ba.fields[1].offset_of_linear(hv)];
        b = a = float_to_bf16(0.5f * (bf16_to_float(b) + bf16_to_float(a)));
      }
    return reference_.step(blended);
  }

 private:
  GdnReference reference_;
};

TEST(NeverGuess, AResponseNoCandidateExplainsIsUnresolved) {
  const GdnLayouts layouts = flat_gdn_layouts(kGuessShape);
  BlendingKernel kernel(layouts);
  const ProbeVerdict verdict =
      probe_gdn_runner(kernel, ProbeTarget{kGuessShape, GdnBuffer::ba, layouts.ba, layouts});
  EXPECT_EQ(verdict.unresolved_probes, 2 * kGuessShape.HV);
  EXPECT_EQ(verdict.reads.unresolved, 2 * kGuessShape.HV);
  EXPECT_EQ(verdict.reads.misread, 0);  // nothing is claimed as read from anywhere
  EXPECT_FALSE(verdict.agrees_with_diff);
  EXPECT_FALSE(verdict.clean());
  ASSERT_FALSE(verdict.unresolved_details.empty());
  EXPECT_NE(verdict.unresolved_details[0].find("no candidate matches"), std::string::npos)
      << verdict.unresolved_details[0];
}

TEST(NeverGuess, AResponseSeveralCandidatesExplainIsAmbiguous) {
  // With a tolerance so loose that b, a and both explain any response, the decoder must say so
  // rather than take the closest.
  const GdnLayouts layouts = flat_gdn_layouts(kGuessShape);
  ReferenceRunner kernel(kGuessShape, layouts);
  ProbeOptions loose;
  loose.tolerance = 1e3;
  const ProbeVerdict verdict =
      probe_gdn_runner(kernel, ProbeTarget{kGuessShape, GdnBuffer::ba, layouts.ba, layouts}, loose);
  EXPECT_EQ(verdict.unresolved_probes, 2 * kGuessShape.HV);
  EXPECT_EQ(verdict.reads.unresolved, 2 * kGuessShape.HV);
  ASSERT_FALSE(verdict.unresolved_details.empty());
  EXPECT_NE(verdict.unresolved_details[0].find(" matches "), std::string::npos)
      << verdict.unresolved_details[0];
}

TEST(NeverGuess, ElementsNamedByTheConvStateStandEvenWhenValuesDiffer) {
  // The reference with skipped l2 normalisation reads every element right; its values differ.
  const GdnLayouts layouts = flat_gdn_layouts(kGuessShape);
  GdnFaults faults;
  faults.head.skip_l2norm = true;
  ReferenceRunner kernel("numeric bug", GdnReference(kGuessShape, layouts, faults));
  const ProbeVerdict verdict =
      probe_gdn_runner(kernel, ProbeTarget{kGuessShape, GdnBuffer::qkvz, layouts.qkvz, layouts});
  EXPECT_TRUE(verdict.layout_ok());
  EXPECT_GT(verdict.value_deviations, 0);
  EXPECT_EQ(verdict.conclusion(), "no layout misread, values differ from the reference");
}

}  // namespace
}  // namespace layoutcheck
