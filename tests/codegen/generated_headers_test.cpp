// The kernels' addressing is the reviewed contract: the headers committed under kernels/gdn/generated/
// are exactly what `layoutcheck codegen` makes of contracts/gdn/*.yaml today, and their offset
// functions agree with the contract model element for element, at the defaults and at other sizes
// (the expressions are emitted symbolically, not as numbers).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../../kernels/gdn/generated/qwen3_5_ba.h"
#include "../../kernels/gdn/generated/qwen3_5_qkvz.h"
#include "../../kernels/gdn/generated/qwen3_next_ba.h"
#include "../../kernels/gdn/generated/qwen3_next_qkvz.h"
#include "../../kernels/gdn/generated/state_hkv.h"
#include "../../kernels/gdn/generated/state_hvk.h"
#include "layoutcheck/codegen/offset_header.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/contract/read_file.h"

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;

// contracts/gdn/qwen3_5.qkvz.yaml -> kernels/gdn/generated/qwen3_5_qkvz.h
fs::path generated_header_for(const fs::path& contract) {
  std::string stem = contract.stem().string();
  for (char& c : stem)
    if (c == '.') c = '_';
  return fs::path(LAYOUTCHECK_TEST_DATA) / ".." / "kernels" / "gdn" / "generated" / (stem + ".h");
}

TEST(GeneratedHeaders, AreCurrentForEveryGdnContract) {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(LAYOUTCHECK_CONTRACTS_DIR) / "gdn")) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const Contract contract = load_contract(entry.path().string());
    codegen::OffsetHeaderOptions options;
    options.source_label = "contracts/gdn/" + entry.path().filename().string();
    const std::string fresh = codegen::generate_offset_header(contract, options);
    const fs::path committed = generated_header_for(entry.path());
    ASSERT_TRUE(fs::exists(committed))
        << committed << " is missing: run scripts/regenerate-kernel-headers.sh";
    EXPECT_EQ(read_text_file(committed.string()).value_or(""), fresh)
        << committed << " is stale: run scripts/regenerate-kernel-headers.sh";
    ++checked;
  }
  EXPECT_GE(checked, 7);
}

template <class Offset>
void expect_field_matches(const Contract& contract, const char* field_name, Offset&& offset) {
  const Field& field = *contract.find_field(field_name);
  std::int64_t wrong = 0;
  for (std::int64_t linear = 0; linear < field.elements(); ++linear) {
    const std::vector<std::int64_t> index = field.unravel(linear);
    if (offset(index) != field.offset_of(index) && wrong++ == 0)
      ADD_FAILURE() << field_name << "[" << linear << "]: generated " << offset(index)
                    << ", contract " << field.offset_of(index);
  }
  EXPECT_EQ(wrong, 0) << field_name;
}

struct Sizes {
  long long H, HV, K, V;
};

LoadOptions with(const Sizes& s) {
  LoadOptions options;
  options.overrides = {{"H", s.H}, {"HV", s.HV}, {"K", s.K}, {"V", s.V}};
  return options;
}

template <class Symbols>
Symbols symbols(const Sizes& s) {
  Symbols result;
  result.H = s.H;
  result.HV = s.HV;
  result.K = s.K;
  result.V = s.V;
  return result;
}

class GeneratedOffsets : public ::testing::TestWithParam<Sizes> {};

TEST_P(GeneratedOffsets, EqualTheContractAtTheseSizes) {
  const Sizes sizes = GetParam();
  const std::string dir = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/";
  {
    namespace g = contracts::qwen3_5_qkvz;
    const Contract c = load_contract(dir + "qwen3_5.qkvz.yaml", with(sizes));
    const auto s = symbols<g::Symbols<std::int64_t>>(sizes);
    expect_field_matches(c, "Q", [&](auto& i) { return g::offset_Q(s, i[0], i[1]); });
    expect_field_matches(c, "K", [&](auto& i) { return g::offset_K(s, i[0], i[1]); });
    expect_field_matches(c, "V", [&](auto& i) { return g::offset_V(s, i[0], i[1]); });
    expect_field_matches(c, "Z", [&](auto& i) { return g::offset_Z(s, i[0], i[1]); });
  }
  {
    namespace g = contracts::qwen3_next_qkvz;
    const Contract c = load_contract(dir + "qwen3_next.qkvz.yaml", with(sizes));
    const auto s = symbols<g::Symbols<std::int64_t>>(sizes);
    expect_field_matches(c, "Q", [&](auto& i) { return g::offset_Q(s, i[0], i[1]); });
    expect_field_matches(c, "K", [&](auto& i) { return g::offset_K(s, i[0], i[1]); });
    expect_field_matches(c, "V", [&](auto& i) { return g::offset_V(s, i[0], i[1]); });
    expect_field_matches(c, "Z", [&](auto& i) { return g::offset_Z(s, i[0], i[1]); });
  }
  {
    namespace g = contracts::qwen3_5_ba;
    const Contract c = load_contract(dir + "qwen3_5.ba.yaml", with(sizes));
    const auto s = symbols<g::Symbols<std::int64_t>>(sizes);
    expect_field_matches(c, "B", [&](auto& i) { return g::offset_B(s, i[0]); });
    expect_field_matches(c, "A", [&](auto& i) { return g::offset_A(s, i[0]); });
  }
  {
    namespace g = contracts::qwen3_next_ba;
    const Contract c = load_contract(dir + "qwen3_next.ba.yaml", with(sizes));
    const auto s = symbols<g::Symbols<std::int64_t>>(sizes);
    expect_field_matches(c, "B", [&](auto& i) { return g::offset_B(s, i[0]); });
    expect_field_matches(c, "A", [&](auto& i) { return g::offset_A(s, i[0]); });
  }
  {
    namespace g = contracts::gdn_state_hkv;
    const Contract c = load_contract(dir + "state.hkv.yaml", with(sizes));
    const auto s = symbols<g::Symbols<std::int64_t>>(sizes);
    expect_field_matches(c, "S", [&](auto& i) { return g::offset_S(s, i[0], i[1], i[2]); });
  }
  {
    namespace g = contracts::gdn_state_hvk;
    const Contract c = load_contract(dir + "state.hvk.yaml", with(sizes));
    const auto s = symbols<g::Symbols<std::int64_t>>(sizes);
    expect_field_matches(c, "S", [&](auto& i) { return g::offset_S(s, i[0], i[1], i[2]); });
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GeneratedOffsets,
                         ::testing::Values(Sizes{16, 48, 128, 128}, Sizes{16, 32, 128, 128},
                                           Sizes{2, 6, 37, 65}, Sizes{3, 3, 8, 5}));

// Generated headers are constexpr: usable where the compiler needs a constant.
static_assert(contracts::qwen3_next_ba::offset_A(contracts::qwen3_next_ba::Symbols<int>{}, 4) ==
              3 * 2 + 3 + 1);

}  // namespace
}  // namespace layoutcheck
