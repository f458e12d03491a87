// SVG pictures: well-formed XML, a bounded number of shapes however large the row, and the facts
// a reviewer reads off them (labels, bands, misread marks).
#include "layoutcheck/render/svg.h"

#include <gtest/gtest.h>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/moved_runs.h"
#include "render/shipped_contract.h"
#include "render/xml_check.h"

namespace layoutcheck {
namespace {

using testing::xml_problem;

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

TEST(Svg, OneRowIsLabelledByHead) {
  const std::string svg = render_row_svg(shipped_gdn_contract("qwen3_next.qkvz"));
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  // One rectangle per head of each field (16 + 16 + 48 + 48), never one per element.
  EXPECT_LT(count(svg, "<rect"), 200u);
  EXPECT_LT(svg.size(), 60000u);
  // At 1400 px a head is 9 px wide, too narrow for a label that reads: each group's stretch of a
  // field is labelled instead, and no label is set below the smallest readable size.
  EXPECT_NE(svg.find(">V<"), std::string::npos);
  EXPECT_EQ(svg.find("font-size=\"6"), std::string::npos);
  // Wide enough, every head is named by the contract's own dim: hv for V, h for Q.
  const std::string wide = render_row_svg(shipped_gdn_contract("qwen3_next.qkvz"), {8000});
  EXPECT_NE(wide.find(">V hv7<"), std::string::npos);  // value head 7: r=1 of key head 2
  EXPECT_NE(wide.find(">Q h15<"), std::string::npos);
  EXPECT_NE(svg.find(">16384<"), std::string::npos);  // the axis ends at the row size
  EXPECT_NE(svg.find("qwen3_next.qkvz: one row, 16384 offsets"), std::string::npos);
}

TEST(Svg, DiffMarksMisreadRunsAndJoinsThemToTheProducer) {
  const Contract flat = shipped_gdn_contract("qwen3_5.qkvz"),
                 next = shipped_gdn_contract("qwen3_next.qkvz");
  const MisreadReport report = diff_contracts(flat, next);
  const std::string svg = render_diff_svg(flat, next, report);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_LT(count(svg, "<rect"), 500u);
  EXPECT_LT(svg.size(), 150000u);
  EXPECT_NE(svg.find("15488 of 16384 elements misread"), std::string::npos);
  // Every head moves except Q[0], V[18:21] and Z[45:48]; heads that move together (V[0:3] is read
  // where Q[2:5] is) form one run, and each run gets one band.
  std::int64_t moved_heads = 0;
  for (const MisreadRun& run : report.runs)
    moved_heads += (run.offset_end - run.offset_begin) / 128;
  EXPECT_EQ(moved_heads, 128 - 1 - 3 - 3);
  // Runs of one move share a band: far fewer bands than runs, each merged one with its count.
  const std::optional<std::vector<Move>> moves = fold_moves(MovedRuns(flat, next), 2000, 100000);
  ASSERT_TRUE(moves);
  EXPECT_EQ(count(svg, "<path"), moves->size());
  EXPECT_LT(moves->size(), static_cast<std::size_t>(report.runs_total));
  EXPECT_NE(svg.find(">Q \u00d715<"), std::string::npos);
  EXPECT_NE(svg.find("61 moved runs in " + std::to_string(moves->size()) + " bands"),
            std::string::npos);
  // The misread share of each field sits on the right margin.
  EXPECT_NE(svg.find(">K 100.0 %<"), std::string::npos);
  EXPECT_NE(svg.find(">Q 93.8 %<"), std::string::npos);
  EXPECT_NE(svg.find("url(#misread)"), std::string::npos);
  EXPECT_NE(svg.find(">producer<"), std::string::npos);
  EXPECT_NE(svg.find(">consumer<"), std::string::npos);

  const std::string same = render_diff_svg(flat, flat, diff_contracts(flat, flat));
  EXPECT_EQ(xml_problem(same), "");
  EXPECT_EQ(count(same, "<path"), 0u);
  EXPECT_EQ(count(same, "url(#misread)"), 0u);
  EXPECT_NE(same.find("0 of 16384 elements misread"), std::string::npos);
}

TEST(Svg, TooManyRunsAreDrawnPerHead) {
  const Contract hkv = shipped_gdn_contract("state.hkv"), hvk = shipped_gdn_contract("state.hvk");
  const std::string svg = render_diff_svg(hkv, hvk, diff_contracts(hkv, hvk));
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count(svg, "<path"), 48u);  // every head's elements stay within the head
  EXPECT_NE(svg.find("780288 moved runs, too many to draw: 48 bands"), std::string::npos);
  EXPECT_LT(svg.size(), 100000u);
}

// Two fields interleaved element by element over 10^6 offsets: far more runs than pixels.
TEST(Svg, FinelyInterleavedRowsStayBounded) {
  Contract contract;
  contract.name = "checkerboard & <co>";
  contract.row_size = 1000000;
  for (int f = 0; f < 2; ++f) {
    Field field;
    field.name = f ? "Y" : "X";
    field.offset = f;
    field.dims = {Dim{"i", {Mode{"", 500000, 2, {}}}, {}}};
    contract.fields.push_back(field);
  }
  const std::string svg = render_row_svg(contract);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("checkerboard &amp; &lt;co&gt;"), std::string::npos);
  EXPECT_NE(svg.find("fields interleaved finer than a pixel"), std::string::npos);
  EXPECT_LT(count(svg, "<rect"), 3000u);
  EXPECT_LT(svg.size(), 400000u);

  Contract swapped = contract;
  swapped.fields[0].offset = 1;
  swapped.fields[1].offset = 0;
  const std::string diff = render_diff_svg(contract, swapped, diff_contracts(contract, swapped));
  EXPECT_EQ(xml_problem(diff), "");
  EXPECT_LT(count(diff, "<rect"), 5000u);
  EXPECT_LT(diff.size(), 1000000u);
}

Contract example(const std::string& name) {
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/examples/" + name + ".yaml");
}

TEST(Svg, LabelsComeFromTheContractsDimNamesAndFitTheirCells) {
  const Contract nhd = example("kv_cache.nhd"), hnd = example("kv_cache.hnd");
  const std::string svg = render_diff_svg(nhd, hnd, diff_contracts(nhd, hnd));
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find(">K t3<"), std::string::npos);  // a cache's tokens are tokens, not heads
  EXPECT_EQ(svg.find(">K h3<"), std::string::npos);
  // 16 cells of 35 px per field: the label takes the cell's width, far above the old fixed 8 px.
  const std::size_t label = svg.find(">K t3<");
  const std::size_t size = svg.rfind("font-size=\"", label);
  ASSERT_NE(size, std::string::npos);
  EXPECT_GE(std::stod(svg.substr(size + 11)), 12.0) << svg.substr(size, 40);
}

TEST(Svg, RangeZoomsOnPartOfTheRow) {
  const Contract flat = shipped_gdn_contract("qwen3_5.qkvz"),
                 next = shipped_gdn_contract("qwen3_next.qkvz");
  const MisreadReport report = diff_contracts(flat, next);
  SvgOptions zoom;
  zoom.range = OffsetRange{0, 2048};
  const std::string svg = render_diff_svg(flat, next, report, zoom);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("(offsets 0-2047 of 16384)"), std::string::npos);
  EXPECT_NE(svg.find("clip-path=\"url(#view)\""), std::string::npos);
  // Heads are 78 px wide now: each labelled, K h1 in the second group of the consumer.
  EXPECT_NE(svg.find(">K h1<"), std::string::npos);
  EXPECT_NE(svg.find(">2048<"), std::string::npos);   // the axis ends at the range's end
  EXPECT_EQ(svg.find(">16384<"), std::string::npos);  // and not at the row's
  // A zoom draws each run where it lands, not merged.
  EXPECT_EQ(count(svg, "<path"), 61u);

  for (const OffsetRange bad : {OffsetRange{-1, 10}, OffsetRange{10, 10}, OffsetRange{0, 16385}}) {
    SvgOptions wrong;
    wrong.range = bad;
    EXPECT_THROW(render_diff_svg(flat, next, report, wrong), std::invalid_argument);
    EXPECT_THROW(render_row_svg(flat, wrong), std::invalid_argument);
  }
}

TEST(Svg, XmlCheckerCatchesWhatItShould) {
  EXPECT_NE(xml_problem("<svg><rect a=\"1\" a=\"2\"/></svg>"), "");
  EXPECT_NE(xml_problem("<svg><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg>a & b</svg>"), "");
  EXPECT_NE(xml_problem("<svg x=1></svg>"), "");
  EXPECT_EQ(xml_problem("<svg><text x=\"1\">a &amp; b</text></svg>"), "");
}

}  // namespace
}  // namespace layoutcheck
