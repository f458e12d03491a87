// The layout rules on contracts built for the purpose, every shipped contract, and a 10^7-element
// row for speed.
#include "layoutcheck/check/lint.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace layoutcheck {
namespace {

std::vector<Diagnostic> lint_text(const std::string& body, const LoadOptions& options = {}) {
  ParseResult parsed = parse_contract_text(
      "layoutcheck: 1\nname: t\nbuffer: b\ndtype: bf16\n" + body, "t.yaml", options);
  if (!parsed.contract) return parsed.diagnostics;
  return check_contract(*parsed.contract);
}

std::vector<std::string> rules(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> names;
  for (const Diagnostic& d : diagnostics) names.push_back(d.rule);
  return names;
}

TEST(Lint, EveryShippedContractIsClean) {
  int count = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(LAYOUTCHECK_CONTRACTS_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    ++count;
    std::vector<Diagnostic> diagnostics = lint_file(entry.path().string());
    std::erase_if(diagnostics, [](const Diagnostic& d) { return d.severity == Severity::note; });
    std::string shown;
    for (const Diagnostic& d : diagnostics) shown += d.str() + "\n";
    EXPECT_TRUE(diagnostics.empty()) << shown;  // notes (a gather's proof) are not findings
    // ... and each starts with the schema line editors use to validate it.
    std::ifstream in(entry.path());
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first.rfind("# yaml-language-server: $schema=", 0), 0u) << first;
    const std::string schema = first.substr(first.find('=') + 1);
    EXPECT_TRUE(std::filesystem::exists(entry.path().parent_path() / schema)) << schema;
  }
  EXPECT_GE(count, 9);
}

TEST(Lint, DeclaredPaddingFillsAGap) {
  const std::string fields =
      "fields:\n"
      "  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n"
      "  - {name: K, offset: 8, dims: [{name: h, size: 4, stride: 1}]}\n";
  EXPECT_EQ(rules(lint_text(fields)), (std::vector<std::string>{"gap"}));
  EXPECT_EQ(lint_text(fields)[0].message, "offsets 4-7 hold no element");
  EXPECT_TRUE(
      lint_text(fields + "padding:\n  - {name: pad, offset: 4, size: 4, fill: 0}\n").empty());
  // Part of the gap declared: the rest is still reported, as its own range.
  const auto partial = lint_text(fields + "padding:\n  - {name: pad, offset: 4, size: 2}\n");
  ASSERT_EQ(rules(partial), (std::vector<std::string>{"gap"}));
  EXPECT_EQ(partial[0].message, "offsets 6-7 hold no element");
  // Trailing space in a declared row is a gap at row_size.
  const auto trailing =
      lint_text("row_size: 6\nfields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n");
  ASSERT_EQ(trailing.size(), 1u);
  EXPECT_EQ(trailing[0].message, "offsets 4-5 hold no element");
  EXPECT_EQ(trailing[0].where.line, 5);
}

TEST(Lint, ManyGapsAreSummarised) {
  // Stride 2 leaves every other offset empty: 999 one-offset gaps.
  const auto diagnostics =
      lint_text("fields:\n  - {name: Q, dims: [{name: h, size: 1000, stride: 2}]}\n");
  ASSERT_EQ(diagnostics.size(), 21u);
  EXPECT_EQ(diagnostics[0].message, "offset 1 holds no element");
  EXPECT_EQ(diagnostics.back().message, "and 979 more gaps (979 offsets) hold no element");
}

TEST(Lint, MayAliasAllowsDeclaredOverlapOnly) {
  const std::string body =
      "fields:\n"
      "  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n"
      "  - {name: K, offset: 2, dims: [{name: h, size: 4, stride: 1}]}\n";
  const auto overlap = lint_text(body);
  ASSERT_EQ(rules(overlap), (std::vector<std::string>{"overlap"}));
  EXPECT_EQ(overlap[0].message, "Q[2] and K[0] both map to offset 2 (2 offsets shared by Q and K)");
  EXPECT_EQ(overlap[0].where.line, 7);
  EXPECT_NE(overlap[0].fix.find("may_alias: [Q]"), std::string::npos);
  // Declared on either side, aliasing is allowed.
  std::string declared = body;
  declared.replace(declared.find("{name: K,"), 9, "{name: K, may_alias: [Q],");
  EXPECT_TRUE(lint_text(declared).empty());
  declared = body;
  declared.replace(declared.find("{name: Q,"), 9, "{name: Q, may_alias: [K],");
  EXPECT_TRUE(lint_text(declared).empty());
}

TEST(Lint, ZeroStrideIsAnOverlapUnlessDeclaredBroadcast) {
  const auto undeclared = lint_text(
      "fields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 0}, {name: k, size: 2, stride: "
      "1}]}\n");
  ASSERT_EQ(undeclared.size(), 1u);  // one report, not one per shared offset
  EXPECT_EQ(undeclared[0].rule, "overlap");
  EXPECT_EQ(undeclared[0].severity, Severity::error);
  const auto declared = lint_text(
      "fields:\n  - {name: Q, may_alias: [Q], dims: [{name: h, size: 4, stride: 0}, {name: k, "
      "size: 2, stride: 1}]}\n");
  ASSERT_EQ(declared.size(), 1u);
  EXPECT_EQ(declared[0].rule, "zero-stride");
  EXPECT_EQ(declared[0].severity, Severity::warning);
  // A size-1 mode's stride never matters.
  EXPECT_TRUE(lint_text("fields:\n  - {name: Q, dims: [{name: one, size: 1, stride: 0}, {name: k, "
                        "size: 2, stride: 1}]}\n")
                  .empty());
}

TEST(Lint, SelfOverlapFromStridesNamesBothElements) {
  // (2,4):(1,1): element [1,0] and [0,1] share offset 1.
  const auto diagnostics = lint_text(
      "fields:\n  - {name: Q, dims: [{name: a, size: 2, stride: 1}, {name: b, size: 4, stride: "
      "1}]}\n");
  ASSERT_EQ(rules(diagnostics), (std::vector<std::string>{"overlap"}));
  EXPECT_EQ(diagnostics[0].message,
            "Q[0,1] and Q[1,0] both map to offset 1 (3 offsets shared by Q with itself)");
}

TEST(Lint, RowStrideMayExceedTheRow) {
  const std::string field = "fields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n";
  EXPECT_TRUE(
      lint_text("rows:\n  - {name: token, stride: 64}\n  - {name: batch, stride: 4}\n" + field)
          .empty());
  EXPECT_EQ(rules(lint_text("rows:\n  - {name: token, stride: 3}\n" + field)),
            (std::vector<std::string>{"row-stride"}));
}

TEST(Lint, OutOfBoundsCountsEveryElementAndNamesTheFirst) {
  const auto diagnostics = lint_text(
      "row_size: 8\nfields:\n  - {name: Q, offset: 4, dims: [{name: h, size: 2, stride: 1}, {name: "
      "k, size: 4, stride: 2}]}\n");
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_EQ(diagnostics[0].rule, "out-of-bounds");
  EXPECT_EQ(diagnostics[0].message,
            "Q[0,2] maps to offset 8, past the end of the row (row_size 8); 4 elements of Q are "
            "out of bounds");
}

TEST(Lint, PaddingOverPaddingIsAnError) {
  const auto diagnostics = lint_text(
      "row_size: 8\nfields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n"
      "padding:\n  - {name: a, offset: 4, size: 4}\n  - {name: b, offset: 6, size: 2}\n");
  ASSERT_EQ(rules(diagnostics), (std::vector<std::string>{"padding-overlap"}));
  EXPECT_NE(diagnostics[0].message.find("which holds other padding"), std::string::npos);
}

TEST(Lint, TenMillionElementsInWellUnderASecond) {
  // Two interleaved fields of 5*10^6 elements each: A at even offsets, B at odd ones.
  const std::string body =
      "symbols: {N: 5000000}\n"
      "fields:\n"
      "  - {name: A, dims: [{name: i, size: N, stride: 2}]}\n"
      "  - {name: B, offset: 1, dims: [{name: i, size: N, stride: 2}]}\n";
  ParseResult parsed =
      parse_contract_text("layoutcheck: 1\nname: big\nbuffer: b\ndtype: bf16\n" + body, "big.yaml");
  ASSERT_TRUE(parsed.contract);
  ASSERT_EQ(parsed.contract->elements(), 10'000'000);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(check_contract(*parsed.contract).empty());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("lint_seconds", std::to_string(seconds));
#if !defined(__SANITIZE_ADDRESS__)
#ifdef NDEBUG
  EXPECT_LT(seconds, 1.0);
#endif
#endif
}

}  // namespace
}  // namespace layoutcheck
