// The shipped GDN contracts against the closed-form layouts of design brief section 1, for EVERY
// element, at the default sizes, at --set HV=32 and at odd sizes: a contract typo that moves even
// one element fails here.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

struct Sizes {
  std::int64_t H, HV, K, V, W;
  std::int64_t G() const { return HV / H; }
};

using Index = std::vector<std::int64_t>;
using Formula = std::function<std::int64_t(const Sizes&, const Index&)>;

struct Expected {
  std::string file;  // under contracts/gdn
  std::map<std::string, Formula> fields;
};

std::int64_t group_stride(const Sizes& s) {
  return 2 * s.K + 2 * s.G() * s.V;
}

// Channel number of the conv input x = cat(Q, K, V) (C = 2*H*K + HV*V channels).
std::int64_t q_channel(const Sizes& s, const Index& i) {
  return i[0] * s.K + i[1];
}
std::int64_t k_channel(const Sizes& s, const Index& i) {
  return s.H * s.K + i[0] * s.K + i[1];
}
std::int64_t v_channel(const Sizes& s, const Index& i) {
  return 2 * s.H * s.K + i[0] * s.V + i[1];
}

const std::vector<Expected>& expectations() {
  static const std::vector<Expected> all = {
      {"qwen3_5.qkvz.yaml",
       {{"Q", q_channel},
        {"K", k_channel},
        {"V", v_channel},
        {"Z", [](const Sizes& s,
                 const Index& i) { return 2 * s.H * s.K + s.HV * s.V + i[0] * s.V + i[1]; }}}},
      {"qwen3_next.qkvz.yaml",
       {{"Q", [](const Sizes& s, const Index& i) { return i[0] * group_stride(s) + i[1]; }},
        {"K", [](const Sizes& s, const Index& i) { return i[0] * group_stride(s) + s.K + i[1]; }},
        {"V",
         [](const Sizes& s, const Index& i) {
           return i[0] / s.G() * group_stride(s) + 2 * s.K + i[0] % s.G() * s.V + i[1];
         }},
        {"Z",
         [](const Sizes& s, const Index& i) {
           return i[0] / s.G() * group_stride(s) + 2 * s.K + s.G() * s.V + i[0] % s.G() * s.V +
                  i[1];
         }}}},
      {"qwen3_5.ba.yaml",
       {{"B", [](const Sizes&, const Index& i) { return i[0]; }},
        {"A", [](const Sizes& s, const Index& i) { return s.HV + i[0]; }}}},
      {"qwen3_next.ba.yaml",
       {{"B",
         [](const Sizes& s, const Index& i) { return i[0] / s.G() * 2 * s.G() + i[0] % s.G(); }},
        {"A", [](const Sizes& s,
                 const Index& i) { return i[0] / s.G() * 2 * s.G() + s.G() + i[0] % s.G(); }}}},
      {"conv_channels.yaml", {{"Q", q_channel}, {"K", k_channel}, {"V", v_channel}}},
      {"conv_state.yaml",
       {{"Q", [](const Sizes& s, const Index& i) { return q_channel(s, i) * (s.W - 1) + i[2]; }},
        {"K", [](const Sizes& s, const Index& i) { return k_channel(s, i) * (s.W - 1) + i[2]; }},
        {"V", [](const Sizes& s, const Index& i) { return v_channel(s, i) * (s.W - 1) + i[2]; }}}},
      {"state.hkv.yaml",
       {{"S", [](const Sizes& s, const Index& i) { return (i[0] * s.K + i[1]) * s.V + i[2]; }}}},
      {"state.hvk.yaml",
       {{"S", [](const Sizes& s, const Index& i) { return (i[0] * s.V + i[2]) * s.K + i[1]; }}}},
      {"gdn_out.yaml", {{"O", [](const Sizes& s, const Index& i) { return i[0] * s.V + i[1]; }}}},
  };
  return all;
}

const std::vector<Sizes> kSizes = {
    {16, 48, 128, 128, 4},  // Qwen3.5-27B-style defaults
    {16, 32, 128, 128, 4},  // --set HV=32 (Qwen3-Next-80B)
    {3, 9, 5, 7, 2},        // odd sizes; W = 2 keeps one conv tap
    {1, 1, 1, 1, 3},       {2, 10, 3, 1, 5},
};

LoadOptions options_for(const Sizes& s, bool with_w) {
  LoadOptions options;
  options.overrides = {{"H", s.H}, {"HV", s.HV}, {"K", s.K}, {"V", s.V}};
  if (with_w) options.overrides.emplace_back("W", s.W);
  return options;
}

TEST(GdnContracts, EveryElementMatchesTheClosedForm) {
  for (const Expected& expected : expectations()) {
    for (const Sizes& s : kSizes) {
      SCOPED_TRACE(expected.file + " at H=" + std::to_string(s.H) + " HV=" + std::to_string(s.HV) +
                   " K=" + std::to_string(s.K) + " V=" + std::to_string(s.V) +
                   " W=" + std::to_string(s.W));
      const std::string path = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/" + expected.file;
      const Contract contract =
          load_contract(path, options_for(s, expected.file == "conv_state.yaml"));
      ASSERT_EQ(contract.fields.size(), expected.fields.size());
      std::int64_t checked = 0;
      for (const Field& field : contract.fields) {
        ASSERT_TRUE(expected.fields.count(field.name)) << field.name;
        const Formula& formula = expected.fields.at(field.name);
        std::int64_t mismatches = 0;
        field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
          const Index index = field.unravel(linear);
          mismatches += offset != formula(s, index) || offset != field.offset_of_linear(linear);
        });
        EXPECT_EQ(mismatches, 0) << field.name;
        checked += field.elements();
      }
      EXPECT_EQ(checked, contract.row_size);  // a permutation of the row: every offset used once
    }
  }
}

TEST(GdnContracts, LogicalShapesAgreeAcrossLayouts) {
  const auto shape = [](const char* file, const char* field) {
    const Contract c = load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/" + file);
    return c.find_field(field)->shape();
  };
  for (const char* field : {"Q", "K", "V", "Z"})
    EXPECT_EQ(shape("qwen3_5.qkvz.yaml", field), shape("qwen3_next.qkvz.yaml", field)) << field;
  EXPECT_EQ(shape("qwen3_5.qkvz.yaml", "V"), (std::vector<std::int64_t>{48, 128}));
  EXPECT_EQ(shape("state.hkv.yaml", "S"), shape("state.hvk.yaml", "S"));
  EXPECT_EQ(shape("qwen3_5.ba.yaml", "A"), shape("qwen3_next.ba.yaml", "A"));
  const Contract next =
      load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/qwen3_next.qkvz.yaml");
  EXPECT_EQ(next.find_field("V")->layout_string(), "((3,16),128):((128,1024),1)");
  EXPECT_EQ(next.symbol("G"), 3);
}

}  // namespace
}  // namespace layoutcheck
