#include "layoutcheck/report/markdown_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "bench/synthetic_report.h"
#include "report/report_text.h"

namespace layoutcheck {
namespace {

using namespace layoutcheck::testing;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kRatioMark = "×";

std::string time_tables(const BenchReport& report) {
  return section_of(render_markdown_report(report), "## Time per layer");
}

TEST(MarkdownReport, InvalidPathNeverGetsARatio) {
  const std::string text = render_markdown_report(synthetic_gdn_report());
  const std::vector<std::string> lines = lines_containing(text, "upstream-direct");
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines) EXPECT_THAT(line, Not(HasSubstr(kRatioMark))) << line;
}

TEST(MarkdownReport, InvalidRowShowsReasonMisreadsAndOutputError) {
  const std::string text = render_markdown_report(synthetic_gdn_report());
  const std::vector<std::string> rows =
      lines_containing(time_tables(synthetic_gdn_report()), "| upstream-direct | **INVALID**");
  ASSERT_EQ(rows.size(), 3u);  // one per batch
  for (const std::string& row : rows) {
    EXPECT_THAT(row, HasSubstr("negative control"));
    EXPECT_THAT(row, HasSubstr("16128 of 16480 elements misread (GPU probe)"));
    EXPECT_THAT(row, HasSubstr("output rel L2 1.41e+00"));
    EXPECT_THAT(row, HasSubstr("not timed"));
    EXPECT_THAT(row, HasSubstr("no ratio: INVALID"));
  }
  EXPECT_THAT(text, HasSubstr("## INVALID paths"));
  EXPECT_THAT(text, HasSubstr("  - GPU probe: 16128 of 16480 elements misread"));
}

TEST(MarkdownReport, InvalidPathIsNotTimedEvenIfTimingsWereRecorded) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "upstream-direct").timings = path_named(report, "native").timings;
  const std::vector<std::string> rows =
      lines_containing(time_tables(report), "| upstream-direct | **INVALID**");
  ASSERT_EQ(rows.size(), 3u);
  for (const std::string& line : rows) {
    EXPECT_THAT(line, HasSubstr("not timed"));
    EXPECT_THAT(line, Not(HasSubstr("µs [")));
  }
}

TEST(MarkdownReport, ValidRowsCarryTimeFloorBandwidthAndRatio) {
  const BenchReport report = synthetic_gdn_report();
  const std::string text = time_tables(report);
  const std::vector<std::string> rows = lines_containing(text, "| native | VALID |");
  ASSERT_EQ(rows.size(), 3u);
  // batch 1: native 4.00 µs, baseline 10.0 µs → 2.50×; samples median × {0.98..1.05}.
  EXPECT_THAT(rows[0], HasSubstr("4.00 µs [3.94–4.14]"));
  EXPECT_THAT(rows[0], HasSubstr("hot 2.40 µs"));
  EXPECT_THAT(rows[0], HasSubstr("**2.50×**"));
  // 6.54 MB at 4 TB/s: floor 1.64 µs, 40.9 % of copy bandwidth at 4 µs.
  EXPECT_THAT(rows[0], HasSubstr("6.54 MB | 1.64 µs | 40.9 %"));
  EXPECT_THAT(lines_containing(text, "| baseline | VALID |")[0], HasSubstr("| baseline |"));
}

TEST(MarkdownReport, SpeedupTableOnlyBetweenValidPaths) {
  const std::string text = render_markdown_report(synthetic_gdn_report());
  EXPECT_THAT(text, HasSubstr("| native vs baseline | 2.50× | 1.33× | 1.24× |"));
  EXPECT_THAT(text, HasSubstr("| native vs adapter+upstream | 2.00× | 1.14× | 1.12× |"));
  EXPECT_THAT(text, HasSubstr("| adapter+upstream vs baseline | 1.25× |"));
}

TEST(MarkdownReport, InvalidBaselineRemovesEveryRatioAgainstIt) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "baseline").validity = {false, {"determinism across 2 runs: differ"}};
  const std::string text = render_markdown_report(report);
  for (const std::string& line : lines_containing(text, "baseline"))
    EXPECT_THAT(line, Not(HasSubstr(kRatioMark))) << line;
  EXPECT_THAT(lines_containing(time_tables(report), "| native | VALID |")[0],
              HasSubstr("— (baseline INVALID)"));
  // No speed-up row against it at all (speedup_pairs); the time tables say why.
  EXPECT_THAT(text, Not(HasSubstr("| native vs baseline |")));
  EXPECT_THAT(text, Not(HasSubstr("| adapter+upstream vs baseline |")));
  // Two VALID paths still compare with each other.
  EXPECT_THAT(text, HasSubstr("| native vs adapter+upstream | 2.00×"));
}

TEST(MarkdownReport, NoRatioAnywhereWhenEveryPathIsInvalid) {
  BenchReport report = synthetic_gdn_report();
  for (PathResult& path : report.paths) path.validity = {false, {"forced"}};
  const std::string text = render_markdown_report(report);
  EXPECT_THAT(text, Not(HasSubstr(kRatioMark)));
  EXPECT_EQ(count_of(text, "no ratio: INVALID"), 4u * 3u);
}

TEST(MarkdownReport, HeaderNamesBandwidthMethodAndCommand) {
  const std::string text = render_markdown_report(synthetic_gdn_report());
  EXPECT_THAT(text, HasSubstr("copy bandwidth (device-to-device, this run): **4.00 TB/s**"));
  EXPECT_THAT(text, HasSubstr("H=16 HV=48 K=128 V=128 W=4"));
  EXPECT_THAT(text, HasSubstr("20 warm-up + 100 timed replays"));
  EXPECT_THAT(text, HasSubstr("launch floor (this run): **1.25 µs** per kernel launch (a graph "
                              "of 48 one-thread kernels"));
  EXPECT_THAT(text, HasSubstr("`layoutcheck bench --case gdn-decode --batch 1,64,256 --out out`"));
  EXPECT_THAT(text, HasSubstr("- settled first: 64 device-to-device copies and 32 kernels "
                              "launched outside any graph before anything was timed, as an "
                              "application's process"));
  EXPECT_THAT(text, HasSubstr("### batch 64"));
}

TEST(MarkdownReport, SettledLineCountsInTheSingular) {
  BenchReport report = synthetic_gdn_report();
  report.method.settling_copies = 1;
  report.method.settling_launches = 1;
  EXPECT_THAT(render_markdown_report(report),
              HasSubstr("- settled first: 1 device-to-device copy and 1 kernel launched outside"));
}

TEST(MarkdownReport, HeaderAndGatesSayHowKernelsLaunch) {
  const std::string serial = render_markdown_report(synthetic_gdn_report());
  EXPECT_THAT(serial, HasSubstr("- launches: serial (each kernel starts once the previous one has "
                                "finished)"));
  EXPECT_THAT(serial, Not(HasSubstr("overlapped")));
  const std::string overlapped = render_markdown_report(overlapped_gdn_report());
  EXPECT_THAT(overlapped, HasSubstr("- launches: **overlapped** (programmatic dependent launch)"));
  EXPECT_THAT(overlapped, HasSubstr("| determinism | overlapped launches | misread |"));
  EXPECT_THAT(overlapped, HasSubstr("| bitwise identical | bitwise identical to serial |"));
}

TEST(MarkdownReport, FairnessFlagsStagesProductionDoesNotRun) {
  const std::string text = render_markdown_report(synthetic_gdn_report());
  const auto adapter_rows = lines_containing(text, "| adapter+upstream | adapter");
  ASSERT_EQ(adapter_rows.size(), 2u);
  for (const std::string& row : adapter_rows) EXPECT_THAT(row, HasSubstr("⚑ no"));
  std::vector<std::string> baseline_stages;  // its fairness rows: one launch each
  for (const std::string& row : lines_containing(text, "| baseline | "))
    if (contains(row, "| 1 |")) baseline_stages.push_back(row);
  ASSERT_EQ(baseline_stages.size(), 4u);
  for (const std::string& row : baseline_stages) EXPECT_THAT(row, HasSubstr("| yes |")) << row;
  EXPECT_THAT(text, HasSubstr("| adapter+upstream | **total** | **3** |"));
  EXPECT_THAT(text, HasSubstr("| baseline | **total** | **4** |"));
  EXPECT_THAT(text, Not(HasSubstr("Unfair baseline")));
}

TEST(MarkdownReport, WarnsWhenTheBaselineDoesExtraWork) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "baseline")
      .stages.push_back({"Z copy", 1, {0, 12288}, {0, 12288}, false, "copy production never does"});
  const std::string text = render_markdown_report(report);
  EXPECT_THAT(text, HasSubstr("**Unfair baseline:** baseline runs \"Z copy\""));
}

TEST(MarkdownReport, GatesTableHasEveryPathAndTheBounds) {
  const std::string text = render_markdown_report(synthetic_gdn_report());
  EXPECT_THAT(text, HasSubstr("output rel L2 ≤ 1.00e-02, state rel L2 ≤ 1.00e-05"));
  EXPECT_THAT(text, HasSubstr("1024 consecutive steps at batch 1"));
  EXPECT_THAT(text, HasSubstr("| native | VALID | 3.90e-03 / 2.10e-07 | equal | 1: 3.80e-03 / "
                              "2.00e-07; 256: 3.70e-03 / 1.10e-06; 1024: 3.69e-03 / 3.70e-06 | "
                              "conv state equal | bitwise identical | 0 of 16480 (GPU probe) |"));
  EXPECT_THAT(text, HasSubstr("| upstream-direct | **INVALID** | 1.41e+00 / 9.70e-01 | "
                              "29000/30720 differ (batch 1) |"));
}

TEST(MarkdownReport, PathTimedAtSomeBatchesOnly) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "native").timings.pop_back();  // no batch 256
  const auto rows = lines_containing(time_tables(report), "| native | VALID |");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_THAT(rows[2], HasSubstr("not timed"));
  EXPECT_THAT(rows[2], Not(HasSubstr(kRatioMark)));
}

}  // namespace
}  // namespace layoutcheck
