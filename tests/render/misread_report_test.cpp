// A MisreadReport rendered as the text a reviewer pastes into a PR and as JSON.
#include <gtest/gtest.h>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/misread_json.h"
#include "layoutcheck/render/misread_text.h"

namespace layoutcheck {
namespace {

Contract ba(const char* name) {  // H=2, HV=4: small enough to check every line
  LoadOptions options;
  options.overrides = {{"H", 2}, {"HV", 4}};
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/" + name + ".yaml", options);
}

TEST(ReportText, SummaryTableAndRuns) {
  // Flat [B0 B1 B2 B3 A0 A1 A2 A3] read as interleaved [b0 b1 a0 a1 | b2 b3 a2 a3].
  const MisreadReport report = diff_contracts(ba("qwen3_5.ba"), ba("qwen3_next.ba"));
  // Everything up to the first run; the second run, or the count of runs left out, follows.
  const std::string first_run =
      "qwen3_5.ba (producer) -> qwen3_next.ba (consumer): 4 of 8 elements misread\n"
      "  field  elements  misread\n"
      "  B             4        2\n"
      "  A             4        2\n"
      "  structure, producer vs consumer (shape:stride at offset):\n"
      "    group-major -> interleaved: the producer keeps each of B, A whole, the consumer "
      "interleaves them per h (2 groups of 4 offsets)\n"
      "    B  (4):(1) at 0  vs  ((2,2)):((1,4)) at 0\n"
      "       group-major -> interleaved per h: hv (4):(1) -> (2,2):(1,4)\n"
      "    A  (4):(1) at 4  vs  ((2,2)):((1,4)) at 2\n"
      "       group-major -> interleaved per h: offset 4 -> 2, hv (4):(1) -> (2,2):(1,4)\n"
      "  offsets 4-5 hold A[0:2] in the producer, read as B[2:4] by the consumer\n";
  EXPECT_EQ(
      report_to_text(report),
      first_run + "  offsets 2-3 hold B[2:4] in the producer, read as A[0:2] by the consumer\n");
  EXPECT_EQ(report_to_text(report, 1), first_run + "  ... and 1 more run\n");
}

TEST(ReportText, OneLineWhenTheLayoutsAgree) {
  const Contract flat = ba("qwen3_5.ba");
  EXPECT_EQ(report_to_text(diff_contracts(flat, flat)),
            "qwen3_5.ba (producer) -> qwen3_5.ba (consumer): the layouts agree, all 8 elements "
            "are read as written\n");
}

TEST(ReportText, UnresolvedElementsAndNotes) {
  const Contract flat = ba("qwen3_5.ba");
  Contract other = flat;
  other.row_size += 2;  // padding at the end of the consumer's row: a note
  ReadMap reads = ReadMap::from_contract(other);
  reads.offsets[1] = ReadMap::kAmbiguous;
  reads.offsets[2] = 3;  // B[2] read from B[3]'s offset
  const MisreadReport report = compare_reads(flat, other, reads);
  EXPECT_EQ(
      report_to_text(report),
      "qwen3_5.ba (producer) -> qwen3_5.ba (consumer): 1 of 8 elements misread, 1 unresolved\n"
      "  field  elements  misread  unresolved\n"
      "  B             4        1           1\n"
      "  A             4        0           0\n"
      "  offset 3 holds B[3] in the producer, read as B[2] by the consumer\n"
      "  unresolved (no unique match): B[1]\n"
      "  note: rows differ in size: producer 8, consumer 10 elements\n");
}

TEST(ReportText, RowsSteppedDifferentlyAreNamedEvenWhenOneRowAgrees) {
  const Contract flat = ba("qwen3_5.ba");
  ASSERT_EQ(flat.rows.size(), 1u);
  Contract strided = flat;
  strided.rows[0].stride = 16;
  const MisreadReport report = diff_contracts(flat, strided);
  EXPECT_EQ(report_to_text(report),
            "qwen3_5.ba (producer) -> qwen3_5.ba (consumer): one row agrees (all 8 elements read "
            "as written), but the rows are stepped differently\n"
            "  rows: row dim 'token': producer stride 8, consumer stride 16 elements: every row "
            "after the first is read from the wrong place\n");
  const Json json = Json::parse(report_to_json(report).dump());
  ASSERT_EQ(json["row_mismatches"].size(), 1u);
  EXPECT_EQ(json["misread"].as_int(), 0);
}

TEST(ReportJson, CarriesCountsFieldsAndRuns) {
  const MisreadReport report = diff_contracts(ba("qwen3_5.ba"), ba("qwen3_next.ba"));
  const Json json = Json::parse(report_to_json(report).dump());
  EXPECT_EQ(json["producer"].as_string(),
            std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/qwen3_5.ba.yaml");
  EXPECT_EQ(json["consumer_contract"].as_string(), "qwen3_next.ba");
  EXPECT_EQ(json["elements"].as_int(), 8);
  EXPECT_EQ(json["misread"].as_int(), 4);
  EXPECT_EQ(json["unresolved"].as_int(), 0);
  ASSERT_EQ(json["fields"].size(), 2u);
  EXPECT_EQ(json["fields"][0]["name"].as_string(), "B");
  EXPECT_EQ(json["fields"][0]["elements"].as_int(), 4);
  EXPECT_EQ(json["fields"][0]["misread"].as_int(), 2);
  EXPECT_EQ(json["runs_total"].as_int(), 2);
  ASSERT_EQ(json["runs"].size(), 2u);
  const Json& run = json["runs"][1];
  EXPECT_EQ(run["offset_begin"].as_int(), 2);
  EXPECT_EQ(run["offset_end"].as_int(), 4);  // exclusive
  EXPECT_EQ(run["producer"].as_string(), "B[2:4]");
  EXPECT_EQ(run["consumer"].as_string(), "A[0:2]");
  EXPECT_EQ(json["unresolved_elements"].size(), 0u);

  const Json capped = report_to_json(report, 1);
  EXPECT_EQ(capped["runs"].size(), 1u);
  EXPECT_EQ(capped["runs_total"].as_int(), 2);
}

}  // namespace
}  // namespace layoutcheck
