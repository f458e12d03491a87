// The operator bench's result model and its renderings, without a GPU: the targets it checks
// (copy bandwidth, the baseline ratio, the framework figure), an INVALID path as a finding, and
// the end-to-end gate on a model (the candidate VALID, faster than the baseline, no more device
// memory), in Markdown and JSON.
#include "layoutcheck/bench/operator_report.h"

#include <gtest/gtest.h>

#include <string>

#include "layoutcheck/bench/statistics.h"
#include "layoutcheck/report/operator_report_render.h"

namespace layoutcheck {
namespace {

OperatorPath timed(const std::string& name, double us, std::optional<std::int64_t> bytes = {}) {
  OperatorPath path;
  path.name = name;
  path.gates = {{"reference", true, "max 1 ulp"}};
  path.us = {us, us, us};
  path.time = summarize(path.us);
  path.device_bytes = bytes;
  return path;
}

// 1 GB/s copy: an operator of 1000 bytes has a floor of 1 µs.
OperatorBenchReport report_with(double native_us, double generic_us) {
  OperatorBenchReport report;
  report.case_name = "pangu";
  report.baseline = "generic";
  report.candidate = "native";
  report.copy_bandwidth.bytes_per_copy = 1000;
  report.copy_bandwidth.copy_us = {1.0};
  report.copy_bandwidth.copy = summarize(report.copy_bandwidth.copy_us);
  OperatorMeasurement op{"LayerNorm", "[1,8,192]", 1000, {}, {}};
  op.paths = {timed("generic", generic_us), timed("native", native_us)};
  report.operators.push_back(op);
  return report;
}

TEST(OperatorReport, TargetsAreCheckedAgainstTheFloorTheBaselineAndTheFramework) {
  OperatorBenchReport report = report_with(1.1, 10.0);  // 91 % of copy BW, 9.1x
  EXPECT_TRUE(operator_target_misses(report).empty());
  report = report_with(2.0, 4.0);  // 50 %, 2x
  const auto misses = operator_target_misses(report);
  ASSERT_EQ(misses.size(), 2u);
  EXPECT_NE(misses[0].find("of copy bandwidth"), std::string::npos) << misses[0];
  EXPECT_NE(misses[1].find("2.00× generic"), std::string::npos) << misses[1];
  report = report_with(1.1, 10.0);
  report.targets.framework_mode = "torch.compile + CUDA graph";
  report.operators[0].framework = {{"torch.compile + CUDA graph", 1.0}};
  ASSERT_EQ(operator_target_misses(report).size(), 1u);
  EXPECT_NE(operator_target_misses(report)[0].find("not faster than"), std::string::npos);
  EXPECT_TRUE(operator_findings(report).empty()) << "a missed target is not a finding";
}

// A run without the framework's figures cannot check the target of beating it: the report says
// so where it would otherwise say every target is met.
TEST(OperatorReport, AFrameworkTargetWithoutFiguresIsNotCheckedNotMet) {
  OperatorBenchReport report = report_with(1.1, 10.0);
  EXPECT_NE(render_operator_markdown(report).find("Every operator meets every target.\n"),
            std::string::npos);
  report.targets.framework_not_measured = "torch.compile + CUDA graph";
  report.targets.framework_measured_by = "scripts/pangu-framework-bench.py --json FILE";
  EXPECT_TRUE(operator_target_misses(report).empty());
  ASSERT_EQ(operator_targets_not_checked(report).size(), 1u);
  EXPECT_NE(operator_targets_not_checked(report)[0].find(
                "faster than torch.compile + CUDA graph on the same GPU: no framework figures"),
            std::string::npos);
  const std::string markdown = render_operator_markdown(report);
  EXPECT_EQ(markdown.find("Every operator meets every target."), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("Every operator meets every target checked; not every target was "
                          "checked.\n- not checked: faster than torch.compile"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("not checked in this run: faster than torch.compile + CUDA graph"),
            std::string::npos);
  EXPECT_EQ(operator_report_json(report)["targets_not_checked"].items().size(), 1u);
}

TEST(OperatorReport, ASameSizeCopyIsShownBesideTheFloorAndInAMissedTarget) {
  OperatorBenchReport report = report_with(2.0, 10.0);  // 50 % of copy BW
  EXPECT_EQ(same_size_copy_fraction(report, report.operators[0]), std::nullopt);
  EXPECT_EQ(render_operator_markdown(report).find("copy of the same bytes:"), std::string::npos);
  report.operators[0].same_size_copy = summarize({1.25, 1.25, 1.25});  // 80 %
  ASSERT_TRUE(same_size_copy_fraction(report, report.operators[0]));
  EXPECT_NEAR(*same_size_copy_fraction(report, report.operators[0]), 0.8, 1e-12);
  const auto misses = operator_target_misses(report);
  ASSERT_FALSE(misses.empty());
  EXPECT_NE(misses[0].find("(a copy of the same bytes: 80"), std::string::npos) << misses[0];
  const std::string markdown = render_operator_markdown(report);
  EXPECT_NE(markdown.find("| copy of the same bytes |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("(80"), std::string::npos) << markdown;
  const Json json = operator_report_json(report);
  const Json& op = json["operators"].items()[0];
  EXPECT_DOUBLE_EQ(op["same_size_copy_us"].as_double(), 1.25);
  EXPECT_NEAR(op["same_size_copy_fraction"].as_double(), 0.8, 1e-12);
}

TEST(OperatorReport, AnInvalidPathIsAFindingNamingItsGate) {
  OperatorBenchReport report = report_with(1.1, 10.0);
  report.operators[0].paths[1].gates = {{"reference", false, "3 of 1536 differ"}};
  const auto found = operator_findings(report);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], "LayerNorm [1,8,192], path native is INVALID: reference: 3 of 1536 differ");
}

TEST(OperatorReport, EndToEndGateWantsTheCandidateFasterAndNoLarger) {
  OperatorBenchReport report = report_with(1.1, 10.0);
  ModelMeasurement model{"Pangu-lite block stack, 2 blocks", "[1,131040,192]", "GEMMs cuBLAS",
                         4 << 20, {}};
  model.paths = {timed("generic", 900, 600 << 20), timed("native", 700, 400 << 20)};
  report.models.push_back(model);
  EXPECT_TRUE(operator_findings(report).empty());
  const std::string markdown = render_operator_markdown(report);
  EXPECT_NE(markdown.find("## End-to-end gate"), std::string::npos);
  EXPECT_NE(markdown.find("**1.29×**"), std::string::npos) << markdown;
  const Json json = operator_report_json(report);
  EXPECT_EQ(json["models"].items().size(), 1u);
  EXPECT_NEAR(json["models"].items()[0]["speedup"].as_double(), 900.0 / 700.0, 1e-9);

  report.models[0].paths[1] = timed("native", 950, 700 << 20);
  const auto found = operator_findings(report);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NE(found[0].find("end-to-end gate failed: native is 0.95× generic, not faster"),
            std::string::npos)
      << found[0];
  EXPECT_NE(found[1].find("device memory"), std::string::npos) << found[1];

  report.models[0].paths[1].gates = {{"model gate", false, "channel 3 out of order"}};
  ASSERT_EQ(operator_findings(report).size(), 1u);
  EXPECT_NE(operator_findings(report)[0].find("INVALID: model gate"), std::string::npos);
}

// A gate that could not run is a finding, never a pass: a path missing, or one without its time
// or its device memory.
TEST(OperatorReport, AnEndToEndGateThatCouldNotRunIsAFinding) {
  OperatorBenchReport report = report_with(1.1, 10.0);
  ModelMeasurement model{"Pangu-lite block stack, 2 blocks", "[1,131040,192]", "GEMMs cuBLAS",
                         4 << 20, {}};
  model.paths = {timed("generic", 900, 600 << 20)};
  report.models.push_back(model);
  ASSERT_EQ(operator_findings(report).size(), 1u);
  EXPECT_NE(operator_findings(report)[0].find("end-to-end gate not run: native path missing"),
            std::string::npos)
      << operator_findings(report)[0];
  report.models[0].paths.push_back(timed("native", 700));  // no device memory measured
  ASSERT_EQ(operator_findings(report).size(), 1u);
  EXPECT_NE(operator_findings(report)[0].find("no time or no device memory"), std::string::npos);
}

TEST(OperatorReport, NoOperatorMeasuredMeetsNoTarget) {
  OperatorBenchReport report = report_with(1.1, 10.0);
  report.operators.clear();
  ASSERT_EQ(operator_target_misses(report).size(), 1u);
  EXPECT_EQ(operator_target_misses(report)[0], "no operator measured");
  EXPECT_EQ(render_operator_markdown(report).find("Every operator meets every target"),
            std::string::npos);
}

TEST(OperatorReport, TheHeaderSaysHowManyBufferSetsEachOperatorRotatesOver) {
  OperatorBenchReport report = report_with(1.1, 10.0);
  report.calls_per_graph = 24;
  report.rotation_bytes = std::int64_t{1} << 30;
  report.operators[0].buffer_sets = 6;
  report.operators.push_back(report.operators[0]);
  report.operators[1].buffer_sets = 22;
  const std::string markdown = render_operator_markdown(report);
  EXPECT_NE(markdown.find("24 calls over 6 to 22 sets of buffers in turn, as many as make 1.07 GB"),
            std::string::npos)
      << markdown;
  EXPECT_EQ(operator_report_json(report)["operators"].items()[1]["buffer_sets"].as_int(), 22);
}

// What `layoutcheck bench --case pangu` prints, in its order: the gates first (a path is timed
// only once VALID), each operator at each shape with the baseline beside the candidate, the block
// stack, the targets, and the prototypes that were not merged.
TEST(OperatorReport, GatesComeFirstAndRejectedPrototypesAreListedNotMerged) {
  OperatorBenchReport report = report_with(1.1, 10.0);
  OperatorMeasurement wide{"LayerNorm", "[1,33120,384]", 2000, {}, {}};
  wide.paths = {timed("generic", 20.0), timed("native", 2.2)};
  report.operators.push_back(wide);
  ModelMeasurement model{"Pangu-lite block stack", "[1,33120,384]", "GEMMs cuBLAS", 1 << 20, {}};
  model.paths = {timed("generic", 900, 600 << 20), timed("native", 700, 400 << 20)};
  report.models.push_back(model);
  report.not_merged = {{"one row a wave at 192 channels", "84 % of the copy bandwidth"}};
  const std::string markdown = render_operator_markdown(report);
  std::size_t at = 0;
  for (const char* section :
       {"## Gates", "| LayerNorm | [1,8,192] | generic | VALID |", "## Time per call",
        "| LayerNorm | [1,8,192] |", "| LayerNorm | [1,33120,384] |", "## End-to-end gate",
        "## Targets", "## Not merged",
        "- **one row a wave at 192 channels**: 84 % of the copy bandwidth"}) {
    const std::size_t found = markdown.find(section, at);
    ASSERT_NE(found, std::string::npos) << section << " after offset " << at << "\n" << markdown;
    at = found;
  }
  const std::size_t header = markdown.find("| operator | shape | bytes | floor |");
  ASSERT_NE(header, std::string::npos);
  EXPECT_LT(markdown.find(" generic | % copy BW |", header),
            markdown.find(" native | % copy BW |", header));
  const Json json = operator_report_json(report);
  ASSERT_EQ(json["not_merged"].size(), 1u);
  EXPECT_EQ(json["not_merged"][0]["prototype"].as_string(), "one row a wave at 192 channels");
}

}  // namespace
}  // namespace layoutcheck
