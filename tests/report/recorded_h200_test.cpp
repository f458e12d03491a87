// Two recorded H200 runs (tests/report/recorded/bench-h200/report.json, serial launches, and
// .../bench-h200-overlapped/report.json, written by `layoutcheck bench` on the GPU machine)
// read back without a GPU: their verdicts follow from their own gate numbers, their speed-ups from
// their own samples, and no rendering of them gives the negative control a ratio.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cases/gdn/bench/gdn_misreads.h"
#include "layoutcheck/contract/read_file.h"
#include "cases/gdn/standard_layouts.h"
#include "layoutcheck/report/json_report.h"
#include "layoutcheck/report/markdown_report.h"
#include "layoutcheck/report/timing_chart.h"
#include "report/report_text.h"

namespace layoutcheck {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The parameter is the run's folder under tests/report/recorded/.
class RecordedH200 : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    text_ = recorded_file("report.json");
    ASSERT_FALSE(text_.empty()) << "tests/report/recorded/" << GetParam() << "/report.json is missing";
    report_ = bench_report_from_json(Json::parse(text_));
  }
  std::string recorded_file(const std::string& name) const {
    return read_text_file(std::string(LAYOUTCHECK_TEST_DATA "/report/recorded/") + GetParam() + "/" +
                          name)
        .value_or("");
  }
  std::string text_;
  BenchReport report_;
};

INSTANTIATE_TEST_SUITE_P(Runs, RecordedH200,
                         ::testing::Values("bench-h200", "bench-h200-overlapped"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param) == "bench-h200" ? "Serial" : "Overlapped";
                         });

// Each run launched as its folder says, and the overlapped one gated every path on it.
TEST_P(RecordedH200, LaunchedAsItsFolderSays) {
  const bool overlapped = std::string(GetParam()) == "bench-h200-overlapped";
  EXPECT_EQ(report_.method.overlapped_launches, overlapped);
  for (const PathResult& path : report_.paths) {
    SCOPED_TRACE(path.name);
    EXPECT_EQ(path.gates.overlapped_launches.has_value(), overlapped);
    if (overlapped) EXPECT_TRUE(path.gates.overlapped_launches->equal());
  }
}

TEST_P(RecordedH200, ReadsBackToTheSameText) {
  EXPECT_EQ(render_json_report(report_), text_);
}

// report.md and chart.svg are renderings of the JSON: `bench --from report.json` gives them back
// byte for byte, so a change to the renderers shows up here until they are regenerated.
TEST_P(RecordedH200, MarkdownAndChartAreRenderingsOfTheJson) {
  EXPECT_EQ(render_markdown_report(report_), recorded_file("report.md"));
  EXPECT_EQ(render_timing_chart(report_), recorded_file("chart.svg"));
}

TEST_P(RecordedH200, VerdictsFollowFromTheRecordedGates) {
  ASSERT_EQ(report_.paths.size(), 4u);
  for (const PathResult& path : report_.paths) {
    SCOPED_TRACE(path.name);
    const Validity again = evaluate_gates(path.gates, report_.thresholds);
    EXPECT_EQ(again.valid, path.validity.valid);
    EXPECT_EQ(again.reasons, path.validity.reasons);
    EXPECT_EQ(path.timings.empty(), !path.validity.valid);  // INVALID paths were never timed
  }
  EXPECT_TRUE(findings(report_).empty());
}

TEST_P(RecordedH200, NegativeControlMisreadsWhatTheStaticDiffPredicts) {
  const PathResult* direct = report_.path("upstream-direct");
  ASSERT_NE(direct, nullptr);
  EXPECT_TRUE(direct->negative_control);
  EXPECT_FALSE(direct->validity.valid);
  ASSERT_TRUE(direct->gates.probe.has_value());
  EXPECT_EQ(direct->gates.probe->source, "GPU probe");
  const GdnShape shape;
  const ProbeGate diff =
      static_gdn_misreads(flat_gdn_layouts(shape), interleaved_gdn_layouts(shape));
  EXPECT_EQ(direct->gates.probe->elements, diff.elements);
  EXPECT_EQ(direct->gates.probe->misread, diff.misread);
}

TEST_P(RecordedH200, SpeedupsAreRatiosOfTheRecordedSamples) {
  const Json recorded = Json::parse(text_);
  ASSERT_GT(recorded["speedups"].size(), 0u);
  for (const Json& entry : recorded["speedups"].items()) {
    const std::string candidate = entry["candidate"].as_string();
    const std::string reference = entry["reference"].as_string();
    const std::int64_t batch = entry["batch"].as_int();
    const auto ratio = speedup(report_, candidate, reference, batch);
    ASSERT_TRUE(ratio.has_value()) << candidate << " vs " << reference;
    EXPECT_DOUBLE_EQ(*ratio, entry["ratio"].as_double());
    EXPECT_NE(candidate, "upstream-direct");
    EXPECT_NE(reference, "upstream-direct");
  }
}

TEST_P(RecordedH200, RenderingsNeverRatioTheNegativeControl) {
  const std::string markdown = render_markdown_report(report_);
  for (const std::string& line : testing::lines_containing(markdown, "upstream-direct"))
    EXPECT_THAT(line, Not(HasSubstr("×"))) << line;
  EXPECT_THAT(render_timing_chart(report_), Not(HasSubstr("data-path=\"upstream-direct\"")));
}

TEST_P(RecordedH200, EveryFigureSitsAboveItsFloor) {
  const double bandwidth = report_.copy_bandwidth.bytes_per_second();
  EXPECT_GT(bandwidth, 1e12);  // a real device-to-device copy, TB/s
  for (const PathResult& path : report_.paths)
    for (const BatchTiming& timing : path.timings) {
      SCOPED_TRACE(path.name + " batch " + std::to_string(timing.batch));
      EXPECT_GT(timing.per_layer.median,
                floor_us(total_bytes(path.stages).at(timing.batch), bandwidth));
      EXPECT_LE(timing.per_layer.p10, timing.per_layer.median);
      EXPECT_GE(timing.per_layer.p90, timing.per_layer.median);
      EXPECT_EQ(timing.per_layer_us.size(), static_cast<std::size_t>(report_.method.replays));
    }
}

TEST_P(RecordedH200, EveryFigureSitsAboveItsLaunchesTimesTheLaunchFloor) {
  ASSERT_TRUE(report_.launch_floor.has_value()) << "the recorded run measured no launch floor";
  const double launch_us = report_.launch_floor->node.median;
  EXPECT_GT(launch_us, 0.1);  // a real graph node: a fraction of a microsecond or more
  EXPECT_LT(launch_us, 10.0);
  for (const PathResult& path : report_.paths) {
    const std::int64_t launches = total_launches(path.stages);
    for (const BatchTiming& timing : path.timings) {
      SCOPED_TRACE(path.name + " batch " + std::to_string(timing.batch));
      EXPECT_GT(timing.per_layer.median, static_cast<double>(launches) * launch_us);
    }
  }
}

}  // namespace
}  // namespace layoutcheck
