// The layouts built in code are offset-for-offset the shipped YAML contracts, at the default
// shape and at another one given with --set.
#include "cases/gdn/standard_layouts.h"

#include <gtest/gtest.h>

#include <string>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "cases/gdn/layouts.h"

namespace layoutcheck {
namespace {

std::string contract_path(const std::string& name) {
  return std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/" + name + ".yaml";
}

void expect_same_layout(const Contract& built, const Contract& loaded) {
  SCOPED_TRACE(loaded.name);
  EXPECT_EQ(built.buffer, loaded.buffer);
  EXPECT_EQ(built.row_size, loaded.row_size);
  EXPECT_EQ(row_stride(built), row_stride(loaded));
  const MisreadReport report = diff_contracts(loaded, built);
  EXPECT_EQ(report.misread, 0);
  EXPECT_EQ(report.elements, loaded.elements());
}

TEST(StandardLayouts, MatchTheShippedContracts) {
  for (const GdnShape& shape :
       {GdnShape{}, GdnShape{16, 32, 128, 128, 4}, GdnShape{3, 9, 5, 7, 4}}) {
    SCOPED_TRACE(::testing::Message() << "HV=" << shape.HV << " K=" << shape.K);
    LoadOptions options;
    options.overrides = {{"H", shape.H}, {"HV", shape.HV}, {"K", shape.K}, {"V", shape.V}};
    expect_same_layout(flat_qkvz_contract(shape),
                       load_contract(contract_path("qwen3_5.qkvz"), options));
    expect_same_layout(interleaved_qkvz_contract(shape),
                       load_contract(contract_path("qwen3_next.qkvz"), options));
    expect_same_layout(flat_ba_contract(shape),
                       load_contract(contract_path("qwen3_5.ba"), options));
    expect_same_layout(interleaved_ba_contract(shape),
                       load_contract(contract_path("qwen3_next.ba"), options));
    expect_same_layout(state_contract(shape, StateOrder::hkv),
                       load_contract(contract_path("state.hkv"), options));
    expect_same_layout(state_contract(shape, StateOrder::hvk),
                       load_contract(contract_path("state.hvk"), options));
  }
}

TEST(StandardLayouts, ValidateAgainstTheirShapeAndNameWhatDiffers) {
  const GdnShape shape{3, 9, 5, 7, 4};
  EXPECT_NO_THROW(validate_gdn_layouts(flat_gdn_layouts(shape), shape));
  GdnShape other = shape;
  other.K = 6;
  try {
    validate_gdn_layouts(flat_gdn_layouts(shape), other);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("field Q is [3,5]"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(validate_gdn_layout(flat_ba_contract(shape), GdnBuffer::qkvz, shape), InputError);
  // Built-in layouts are sized by --set alone: past the element cap they are refused, not
  // tabulated (a state of 100000 x 128 x 128 floats would take 13 GB of offsets).
  const GdnShape huge{100000, 100000, 128, 128, 4};
  EXPECT_THROW(validate_gdn_layouts(flat_gdn_layouts(huge), huge), InputError);
  EXPECT_EQ(gdn_buffer_from_name("ssm_state"), GdnBuffer::state);
  EXPECT_THROW(gdn_buffer_from_name("qkv"), InputError);
}

}  // namespace
}  // namespace layoutcheck
