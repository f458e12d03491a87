// explain: offset -> element -> offset round trips on every shipped contract, the arithmetic
// shown for a split dim, padding, gaps and offsets outside the row.
#include "layoutcheck/render/explain.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "layoutcheck/contract/parse.h"
#include "render/shipped_contract.h"

namespace layoutcheck {
namespace {

TEST(Explain, ShowsTheModeArithmetic) {
  const Contract next = shipped_gdn_contract("qwen3_next.qkvz");
  const Explainer explainer(next);
  const std::string details =
      "  field V: ((3,16),128):((128,1024),1) at offset 256\n"
      "  hv=7 -> r=1 (stride 128), h=2 (stride 1024)\n"
      "  v=8 (stride 1)\n"
      "  offset = 256 + 1*128 + 2*1024 + 8*1 = 2440\n";
  EXPECT_EQ(explanation_to_text(explainer.at_offset(2440)),
            "qwen3_next.qkvz: offset 2440 holds V[7,8]\n" + details);
  EXPECT_EQ(explanation_to_text(explainer.at_element("V[7, 8]")),
            "qwen3_next.qkvz: V[7,8] is at offset 2440\n" + details);
  EXPECT_EQ(
      explanation_to_text(Explainer(shipped_gdn_contract("qwen3_5.qkvz")).at_element("V[7,8]")),
      "qwen3_5.qkvz: V[7,8] is at offset 5000\n"
      "  field V: (48,128):(128,1) at offset 4096\n"
      "  hv=7 (stride 128)\n"
      "  v=8 (stride 1)\n"
      "  offset = 4096 + 7*128 + 8*1 = 5000\n");
}

TEST(Explain, JsonHasTheSameFacts) {
  const Contract next = shipped_gdn_contract("qwen3_next.qkvz");
  const Json json = Json::parse(explanation_to_json(Explainer(next).at_offset(2440)).dump());
  EXPECT_EQ(json["holds"].as_string(), "element");
  EXPECT_EQ(json["query"].as_string(), "offset");
  EXPECT_EQ(json["element"].as_string(), "V[7,8]");
  EXPECT_EQ(json["index"][0].as_int(), 7);
  EXPECT_EQ(json["layout"].as_string(), "((3,16),128):((128,1024),1)");
  EXPECT_EQ(json["dims"][0]["modes"][1]["name"].as_string(), "h");
  EXPECT_EQ(json["dims"][0]["modes"][1]["index"].as_int(), 2);
  EXPECT_EQ(json["dims"][0]["modes"][1]["stride"].as_int(), 1024);
}

// Every 1000th offset of every shipped contract (and the last one): offset -> element -> offset.
TEST(Explain, RoundTripsEveryThousandthOffset) {
  int checked = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(LAYOUTCHECK_CONTRACTS_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    const Contract contract = load_contract(entry.path().string());
    const Explainer explainer(contract);
    std::vector<std::int64_t> offsets;
    for (std::int64_t offset = 0; offset < contract.row_size; offset += 1000)
      offsets.push_back(offset);
    offsets.push_back(contract.row_size - 1);
    for (const std::int64_t offset : offsets) {
      SCOPED_TRACE(contract.name + " offset " + std::to_string(offset));
      const Explanation forward = explainer.at_offset(offset);
      if (forward.holds != Explanation::Holds::element) continue;
      EXPECT_EQ(forward.offset, offset);
      const Explanation back = explainer.at_element(forward.element_name);
      EXPECT_EQ(back.offset, offset);
      EXPECT_EQ(back.element_name, forward.element_name);
      EXPECT_EQ(contract.offset_of(*back.element), offset);
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(Explain, PaddingGapsAndOutOfRow) {
  const Contract padded = load_contract_text(
      "layoutcheck: 1\nname: padded\nbuffer: b\ndtype: bf16\nrow_size: 12\nfields:\n"
      "  - {name: X, offset: 0, dims: [{name: i, size: 8, stride: 1}]}\n"
      "padding:\n  - {name: tail, offset: 8, size: 4, fill: -1}\n",
      "padded.yaml");
  const Explainer explainer(padded);
  EXPECT_EQ(explanation_to_text(explainer.at_offset(10)),
            "padded: offset 10 is padding 'tail' (element 2 of 4, filled with -1)\n");
  EXPECT_EQ(explanation_to_json(explainer.at_offset(10))["padding"]["index"].as_int(), 2);

  Contract gap = padded;  // built in code: lint would reject a gap
  gap.padding.clear();
  EXPECT_EQ(explanation_to_text(Explainer(gap).at_offset(9)),
            "padded: offset 9 holds no element (gap)\n");

  for (const std::int64_t offset : {std::int64_t{-1}, std::int64_t{12}, std::int64_t{1} << 40}) {
    try {
      explainer.at_offset(offset);
      ADD_FAILURE() << offset;
    } catch (const InputError& error) {
      EXPECT_EQ(error.diagnostics()[0].rule, "offset");
      EXPECT_NE(error.diagnostics()[0].message.find("outside the row of padded (0 to 11)"),
                std::string::npos);
    }
  }
  EXPECT_THROW(explainer.at_element("X[8]"), InputError);
  EXPECT_THROW(explainer.at_element("Y[0]"), InputError);
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// An offset held by declared aliases names every view of it, whichever is asked.
TEST(Explain, AnOffsetSharedByAliasesNamesEveryView) {
  const Contract aliased = load_contract_text(R"(layoutcheck: 1
name: aliased
buffer: b
dtype: bf16
fields:
  - name: X
    may_alias: [Y]
    dims: [{name: i, size: 4, stride: 1}]
  - name: Y
    dims: [{name: j, size: 2, stride: 2}]
)",
                                              "aliased.yaml");
  const Explainer explainer(aliased);
  const Explanation by_offset = explainer.at_offset(2);
  EXPECT_EQ(by_offset.element_name, "X[2]");
  EXPECT_EQ(by_offset.also, std::vector<std::string>{"Y[1]"});
  EXPECT_NE(explanation_to_text(by_offset).find("also Y[1]"), std::string::npos);
  EXPECT_EQ(explainer.at_element("Y[1]").also, std::vector<std::string>{"X[2]"});
  EXPECT_TRUE(explainer.at_offset(1).also.empty());  // X[1] alone
  EXPECT_EQ(explanation_to_json(explainer.at_offset(2))["also"][0].as_string(), "Y[1]");
}

}  // namespace
}  // namespace layoutcheck
