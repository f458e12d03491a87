#include "layoutcheck/report/json_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "bench/synthetic_report.h"
#include "layoutcheck/report/markdown_report.h"

namespace layoutcheck {
namespace {

using namespace layoutcheck::testing;

TEST(JsonReport, RoundTripsThroughText) {
  const BenchReport report = synthetic_gdn_report();
  const std::string text = render_json_report(report);
  const BenchReport back = bench_report_from_json(Json::parse(text));
  EXPECT_EQ(render_json_report(back), text);
  EXPECT_EQ(render_markdown_report(back), render_markdown_report(report));
}

TEST(JsonReport, CarriesSamplesSummariesAndDerivedFigures) {
  const Json json = bench_report_to_json(synthetic_gdn_report());
  EXPECT_EQ(json["schema"].as_string(), kBenchReportSchema);
  EXPECT_DOUBLE_EQ(json["copy_bandwidth"]["bytes_per_second"].as_double(), 4e12);
  const Json& native = json["paths"][2];
  ASSERT_EQ(native["name"].as_string(), "native");
  EXPECT_TRUE(native["validity"]["valid"].as_bool());
  const Json& batch1 = native["timings"][0];
  EXPECT_EQ(batch1["batch"].as_int(), 1);
  EXPECT_DOUBLE_EQ(batch1["per_layer_us"]["median"].as_double(), 4.0);
  EXPECT_EQ(batch1["per_layer_us"]["samples"].size(), 5u);
  EXPECT_EQ(batch1["bytes_per_layer"].as_int(), 6542144);
  EXPECT_NEAR(batch1["bandwidth_fraction"].as_double(), 6542144 / 4e12 * 1e6 / 4.0, 1e-12);
  EXPECT_EQ(native["launches"].as_int(), 1);
}

TEST(JsonReport, LaunchFloorRoundTripsAndMayBeAbsent) {
  const Json json = bench_report_to_json(synthetic_gdn_report());
  EXPECT_EQ(json["launch_floor"]["nodes_per_graph"].as_int(), 48);
  EXPECT_DOUBLE_EQ(json["launch_floor"]["node_us"]["median"].as_double(), 1.25);
  EXPECT_EQ(json["launch_floor"]["node_us"]["samples"].size(), 5u);

  // Reports recorded before the launch floor was measured still read, and render without it.
  BenchReport older = synthetic_gdn_report();
  older.launch_floor.reset();
  const BenchReport back = bench_report_from_json(Json::parse(render_json_report(older)));
  EXPECT_FALSE(back.launch_floor.has_value());
  EXPECT_THAT(render_markdown_report(back), ::testing::Not(::testing::HasSubstr("launch floor")));
}

TEST(JsonReport, RejectsALaunchFloorWithoutSamplesOrNodes) {
  const Json json = bench_report_to_json(synthetic_gdn_report());
  const Json& samples = json["launch_floor"]["node_us"];
  const Json empty_samples = Json::object().set("samples", Json::array());
  for (const Json& floor : {Json::object().set("nodes_per_graph", 0).set("node_us", samples),
                            Json::object().set("nodes_per_graph", 48).set("node_us", empty_samples),
                            Json::object().set("nodes_per_graph", 48)}) {
    Json document = json;
    document.set("launch_floor", floor);
    EXPECT_THROW(bench_report_from_json(document), std::runtime_error) << floor.dump();
  }
}

TEST(JsonReport, InvalidPathHasReasonsAndNoTimings) {
  const Json json = bench_report_to_json(synthetic_gdn_report());
  const Json& direct = json["paths"][3];
  ASSERT_EQ(direct["name"].as_string(), "upstream-direct");
  EXPECT_FALSE(direct["validity"]["valid"].as_bool());
  EXPECT_TRUE(direct["negative_control"].as_bool());
  EXPECT_EQ(direct["timings"].size(), 0u);
  EXPECT_EQ(direct["gates"]["probe"]["misread"].as_int(), 16128);
  EXPECT_EQ(direct["validity"]["reasons"][0].as_string(),
            "GPU probe: 16128 of 16480 elements misread");
}

TEST(JsonReport, SpeedupsNeverNameAnInvalidPath) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "upstream-direct").timings = path_named(report, "native").timings;
  const Json json = bench_report_to_json(report);
  ASSERT_GT(json["speedups"].size(), 0u);
  for (const Json& entry : json["speedups"].items()) {
    EXPECT_NE(entry["candidate"].as_string(), "upstream-direct");
    EXPECT_NE(entry["reference"].as_string(), "upstream-direct");
  }
  // 3 batches × (adapter+upstream, native vs baseline; native vs adapter+upstream)
  EXPECT_EQ(json["speedups"].size(), 9u);
}

TEST(JsonReport, NanErrorsSurviveAsNullAndStillFail) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "native").gates.reference[0].output_rel_l2 = std::nan("");
  const BenchReport back = bench_report_from_json(Json::parse(render_json_report(report)));
  const PathResult* native = back.path("native");
  EXPECT_TRUE(std::isnan(native->gates.reference[0].output_rel_l2));
  EXPECT_FALSE(evaluate_gates(native->gates, back.thresholds).valid);
}

TEST(JsonReport, RecomputesSummariesFromSamples) {
  Json json = bench_report_to_json(synthetic_gdn_report());
  std::string text = json.dump();
  // A hand-edited median is not believed: the samples are the record.
  const std::string needle = "\"median\": 4.0,";
  const std::size_t at = text.find(needle, text.find("\"name\": \"native\""));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, needle.size(), "\"median\": 1.0,");
  const BenchReport back = bench_report_from_json(Json::parse(text));
  EXPECT_DOUBLE_EQ(back.path("native")->timing_at(1)->per_layer.median, 4.0);
}

TEST(JsonReport, RejectsOtherDocuments) {
  EXPECT_THROW(bench_report_from_json(Json::parse("{}")), std::runtime_error);
  EXPECT_THROW(bench_report_from_json(Json::parse(R"({"schema": "other/1"})")), std::runtime_error);
  Json json = bench_report_to_json(synthetic_gdn_report());
  json.set("layers", "forty-eight");
  try {
    bench_report_from_json(json);
    FAIL() << "accepted a string for layers";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("bench report JSON"));
  }
}

}  // namespace
}  // namespace layoutcheck
