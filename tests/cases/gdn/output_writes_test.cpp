// Where a kernel writes out is found from the weights alone: the reference writes the model's
// order, a kernel writing [V][HV] is named with its strides, and with its output read back as
// written every input probe is clean again (the finding is the output's, not Z's or routing's).
#include "cases/gdn/probe/output_writes.h"

#include <gtest/gtest.h>

#include "cases/gdn/odd_shape.h"
#include "cases/gdn/probe/probe_sweep.h"
#include "cases/gdn/reference_runner.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

// The reference, its output written [V][HV] within each batch row.
class TransposedOutput : public GdnRunner {
 public:
  explicit TransposedOutput(const GdnShape& shape)
      : shape_(shape), reference_("reference", GdnReference(shape, flat_gdn_layouts(shape))) {}
  std::string name() const override { return "out transposed"; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    GdnStepOutputs outputs = reference_.step(inputs);
    const std::vector<bf16_bits> model = outputs.out;
    const std::int64_t HV = shape_.HV, V = shape_.V;
    for (std::int64_t r = 0; r < inputs.batch; ++r)
      for (std::int64_t hv = 0; hv < HV; ++hv)
        for (std::int64_t v = 0; v < V; ++v)
          outputs.out[static_cast<std::size_t>((r * V + v) * HV + hv)] =
              model[static_cast<std::size_t>((r * HV + hv) * V + v)];
    return outputs;
  }

 private:
  GdnShape shape_;
  ReferenceRunner reference_;
};

TEST(OutputWrites, TheReferenceWritesTheModelsOrder) {
  ReferenceRunner reference("reference", GdnReference(kOdd, flat_gdn_layouts(kOdd)));
  const OutputWrites writes = find_output_writes(reference, kOdd, flat_gdn_layouts(kOdd), 1);
  ASSERT_TRUE(writes.determined) << writes.detail;
  EXPECT_TRUE(writes.as_model());
  EXPECT_EQ(writes.notation(kOdd), "(9,7):(7,1)");
  EXPECT_GE(writes.runs, 1 + kOdd.V + 3 * kOdd.HV);
}

TEST(OutputWrites, ATransposedOutputIsNamedAndReadBackForTheProbes) {
  TransposedOutput kernel(kOdd);
  const GdnLayouts model = flat_gdn_layouts(kOdd);
  const OutputWrites writes = find_output_writes(kernel, kOdd, model, 1);
  ASSERT_TRUE(writes.determined) << writes.detail;
  EXPECT_FALSE(writes.as_model());
  EXPECT_EQ(writes.notation(kOdd), "(9,7):(1,9)");

  // Probed as is, the transposed output reads as misreads of the inputs; read back as written,
  // every buffer is clean.
  const ProbeTarget target{kOdd, GdnBuffer::qkvz, model.qkvz, model};
  EXPECT_FALSE(probe_gdn_runner(kernel, target).clean());
  const std::unique_ptr<GdnRunner> read_back = read_output_as_written(kernel, writes);
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state}) {
    SCOPED_TRACE(static_cast<int>(buffer));
    const ProbeVerdict verdict =
        probe_gdn_runner(*read_back, ProbeTarget{kOdd, buffer, layout_of(model, buffer), model});
    EXPECT_TRUE(verdict.layout_ok()) << verdict.conclusion();
  }
}

// A kernel ignoring norm_weight leaves the output's order undetermined, and says why.
class IgnoresNormWeight : public GdnRunner {
 public:
  explicit IgnoresNormWeight(const GdnShape& shape)
      : reference_("reference", GdnReference(shape, flat_gdn_layouts(shape))) {}
  std::string name() const override { return "ignores norm_weight"; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override {
    GdnStepInputs fixed = inputs;
    std::fill(fixed.weights.norm_weight.begin(), fixed.weights.norm_weight.end(),
              float_to_bf16(1.0f));
    return reference_.step(fixed);
  }

 private:
  ReferenceRunner reference_;
};

TEST(OutputWrites, UndeterminedSaysWhy) {
  IgnoresNormWeight kernel(kOdd);
  const OutputWrites writes = find_output_writes(kernel, kOdd, flat_gdn_layouts(kOdd), 1);
  EXPECT_FALSE(writes.determined);
  EXPECT_NE(writes.detail.find("norm_weight[0] moved 0 output elements"), std::string::npos)
      << writes.detail;
}

}  // namespace
}  // namespace layoutcheck
