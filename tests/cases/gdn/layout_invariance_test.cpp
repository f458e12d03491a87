// The same logical problem laid out by two different contracts gives bitwise-identical results:
// the reference reads through contracts, and nothing in its arithmetic depends on the layout.
#include <gtest/gtest.h>

#include "cases/gdn/random_problem.h"
#include "cases/gdn/reference.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

struct InvarianceCase {
  const char* name;
  GdnShape shape;
};

class LayoutInvariance : public ::testing::TestWithParam<InvarianceCase> {};

// Reads a laid-out state back into logical order.
std::vector<float> logical_state(const std::vector<float>& buffer, const Contract& contract,
                                 const GdnShape& shape, std::int64_t batch) {
  std::vector<float> logical(static_cast<std::size_t>(batch * shape.state_elements()));
  for (std::int64_t row = 0; row < batch; ++row)
    contract.find_field("S")->for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      logical[row * shape.state_elements() + linear] = buffer[row * row_stride(contract) + offset];
    });
  return logical;
}

TEST_P(LayoutInvariance, FlatInterleavedHkvHvkAllAgreeBitwise) {
  const GdnShape shape = GetParam().shape;
  const std::vector<GdnLayouts> layouts = {flat_gdn_layouts(shape, StateOrder::hkv),
                                           flat_gdn_layouts(shape, StateOrder::hvk),
                                           interleaved_gdn_layouts(shape, StateOrder::hkv),
                                           interleaved_gdn_layouts(shape, StateOrder::hvk)};
  for (std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const GdnLogicalInputs logical = make_random_logical_inputs(shape, 3, seed);
    const GdnReference first(shape, layouts[0]);
    const GdnStepInputs first_inputs = lay_out(logical, layouts[0]);
    const GdnReferenceOutputs expected = first.step_exact(first_inputs);
    const GdnStepOutputs expected_stored = first.step(first_inputs);
    for (std::size_t i = 1; i < layouts.size(); ++i) {
      SCOPED_TRACE(layouts[i].qkvz.name + " + " + layouts[i].state.name);
      const GdnReference reference(shape, layouts[i]);
      const GdnStepInputs inputs = lay_out(logical, layouts[i]);
      ASSERT_NE(inputs.qkvz == first_inputs.qkvz && inputs.state == first_inputs.state, true)
          << "the layouts must differ physically for this test to mean anything";
      const GdnReferenceOutputs actual = reference.step_exact(inputs);
      EXPECT_EQ(actual.out, expected.out);
      EXPECT_EQ(actual.state, expected.state);
      EXPECT_EQ(actual.conv_state, expected.conv_state);
      const GdnStepOutputs stored = reference.step(inputs, 2);
      EXPECT_EQ(stored.out, expected_stored.out);
      EXPECT_EQ(logical_state(stored.state, layouts[i].state, shape, 3),
                logical_state(expected_stored.state, layouts[0].state, shape, 3));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, LayoutInvariance,
                         ::testing::Values(InvarianceCase{"odd", {3, 9, 5, 7, 4}},
                                         InvarianceCase{"one_value_head_per_key_head",
                                                        {2, 2, 4, 4, 2}},
                                         InvarianceCase{"square", {2, 6, 16, 16, 4}}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace layoutcheck
