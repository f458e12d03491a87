#include "layoutcheck/report/json_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "bench/synthetic_report.h"
#include "layoutcheck/report/markdown_report.h"
#include "report/json_edit.h"

namespace layoutcheck {
namespace {

using namespace layoutcheck::testing;
using ::testing::HasSubstr;

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

TEST(JsonReport, SettlingLaunchesRoundTripAndMayBeAbsent) {
  const Json json = bench_report_to_json(synthetic_gdn_report());
  EXPECT_EQ(json["method"]["settling_launches"].as_int(), 32);
  EXPECT_EQ(json["method"]["settling_copies"].as_int(), 64);
  EXPECT_EQ(bench_report_from_json(json).method.settling_launches, 32);
  EXPECT_EQ(bench_report_from_json(json).method.settling_copies, 64);
  EXPECT_EQ(load_error(replaced(json, {"method", "settling_launches"}, 0)),
            "bench report JSON: method.settling_launches: must be 1 or more, got 0");
  EXPECT_EQ(load_error(replaced(json, {"method", "settling_copies"}, -3)),
            "bench report JSON: method.settling_copies: must be 1 or more, got -3");
  Json copies_alone = Json::object();
  for (const auto& [key, value] : json["method"].members())
    if (key != "settling_launches") copies_alone.set(key, value);
  EXPECT_EQ(load_error(replaced(json, {"method"}, copies_alone)),
            "bench report JSON: method.settling_copies: has no place without settling_launches "
            "(the bench settles with both)");

  // Reports recorded between the two (launches, then the copy-bandwidth measurement) read too.
  BenchReport launches_only = synthetic_gdn_report();
  launches_only.method.settling_copies = 0;
  const Json launches_json = bench_report_to_json(launches_only);
  EXPECT_EQ(launches_json["method"].find("settling_copies"), nullptr);
  EXPECT_EQ(render_json_report(bench_report_from_json(launches_json)),
            render_json_report(launches_only));
  EXPECT_THAT(render_markdown_report(launches_only),
              HasSubstr("- settled first: 32 kernels launched outside any graph before anything "
                        "was timed, then the copy-bandwidth measurement's copies"));

  // Reports recorded before the bench settled the launch cost read, and say nothing of it.
  BenchReport older = synthetic_gdn_report();
  older.method.settling_copies = 0;
  older.method.settling_launches = 0;
  const Json older_json = bench_report_to_json(older);
  EXPECT_EQ(older_json["method"].find("settling_launches"), nullptr);
  const BenchReport back = bench_report_from_json(older_json);
  EXPECT_EQ(back.method.settling_launches, 0);
  EXPECT_EQ(render_json_report(back), render_json_report(older));
  EXPECT_THAT(render_markdown_report(back), ::testing::Not(HasSubstr("settled first")));
}

TEST(JsonReport, LaunchOrderAndItsGateRoundTrip) {
  const std::string text = render_json_report(overlapped_gdn_report());
  const Json json = Json::parse(text);
  EXPECT_EQ(json["schema"].as_string(), kOverlappedBenchReportSchema);
  EXPECT_EQ(json["method"]["launch"].as_string(), "overlapped");
  EXPECT_EQ(json["paths"][2]["gates"]["overlapped_launches"]["elements"].as_int(), 1000);
  const BenchReport back = bench_report_from_json(json);
  EXPECT_TRUE(back.method.overlapped_launches);
  EXPECT_TRUE(back.thresholds.require_overlapped_launches);  // follows from the launch order
  EXPECT_EQ(render_json_report(back), text);

  // Serial runs keep the first format, with no launch member: what every reader understands.
  const Json serial = bench_report_to_json(synthetic_gdn_report());
  EXPECT_EQ(serial["schema"].as_string(), kBenchReportSchema);
  EXPECT_EQ(serial["method"].find("launch"), nullptr);
  EXPECT_FALSE(bench_report_from_json(serial).method.overlapped_launches);
}

TEST(JsonReport, EachFormatHasOneLaunchOrder) {
  const Json overlapped = bench_report_to_json(overlapped_gdn_report());
  EXPECT_EQ(load_error(replaced(overlapped, {"method", "launch"}, "serial")),
            "bench report JSON: method.launch: is not \"overlapped\" (a serial run is written as "
            "layoutcheck-bench/1)");
  EXPECT_EQ(load_error(replaced(overlapped, {"schema"}, "layoutcheck-bench/1")),
            "bench report JSON: method.launch: has no place in layoutcheck-bench/1, whose runs "
            "launch serially");
  EXPECT_EQ(load_error(replaced(overlapped, {"schema"}, "layoutcheck-bench/3")),
            "bench report JSON: schema: is not layoutcheck-bench/1 or layoutcheck-bench/2");
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
    EXPECT_THAT(load_error(document), HasSubstr("bench report JSON: launch_floor.node"))
        << floor.dump();
  }
}

// Every figure rendered from a sample divides by it or by a median of them: an empty list or a
// time that is not positive and finite is refused at load, naming the path and batch, instead
// of throwing while rendering.
TEST(JsonReport, RejectsUnusableSamplesNamingPathAndBatch) {
  const Json json = bench_report_to_json(synthetic_gdn_report());
  struct Case {
    std::vector<JsonKey> member;
    Json value;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{"paths", 2, "timings", 1, "per_layer_us", "samples"},
       Json::array(),
       "bench report JSON: paths[2].timings[1].per_layer_us.samples: no samples (native, batch "
       "64)"},
      {{"paths", 2, "timings", 1, "per_layer_us", "samples", 3},
       0,
       "bench report JSON: paths[2].timings[1].per_layer_us.samples[3]: 0.00e+00 µs is not a "
       "positive time (native, batch 64)"},
      {{"paths", 0, "timings", 2, "per_layer_us", "samples", 0},
       -2.5,
       "bench report JSON: paths[0].timings[2].per_layer_us.samples[0]: -2.50e+00 µs is not a "
       "positive time (baseline, batch 256)"},
      {{"paths", 1, "timings", 0, "per_layer_us", "samples", 4},
       nullptr,
       "bench report JSON: paths[1].timings[0].per_layer_us.samples[4]: not a finite time "
       "(adapter+upstream, batch 1)"},
      {{"paths", 2, "timings", 0, "hot_us", "samples"},
       Json::array(),
       "bench report JSON: paths[2].timings[0].hot_us.samples: no samples (native, batch 1)"},
      {{"copy_bandwidth", "copy_us", "samples"},
       Json::array(),
       "bench report JSON: copy_bandwidth.copy_us.samples: no samples"},
      {{"copy_bandwidth", "copy_us", "samples", 2},
       nullptr,
       "bench report JSON: copy_bandwidth.copy_us.samples[2]: not a finite time"},
      {{"copy_bandwidth", "bytes_per_copy"},
       0,
       "bench report JSON: copy_bandwidth.bytes_per_copy: must be 1 or more, got 0"},
  };
  for (const Case& broken : cases) {
    SCOPED_TRACE(broken.error);
    const Json document = replaced(json, broken.member, broken.value);
    EXPECT_EQ(load_error(document), broken.error);
  }
}

TEST(JsonReport, TypeErrorsNameTheMember) {
  const Json json = bench_report_to_json(synthetic_gdn_report());
  EXPECT_EQ(
      load_error(replaced(json, {"paths", 2, "timings", 0, "per_layer_us", "samples"}, "fast")),
      "bench report JSON: paths[2].timings[0].per_layer_us.samples: expected an array, got "
      "a string");
  EXPECT_EQ(load_error(replaced(json, {"layers"}, 48.0)),
            "bench report JSON: layers: expected an integer, got a number");
  EXPECT_EQ(load_error(replaced(json, {"paths", 1, "gates"}, Json::array())),
            "bench report JSON: paths[1].gates: expected an object, got an array");
  EXPECT_EQ(load_error(replaced(json, {"paths", 3, "gates", "probe"},
                                Json::object().set("source", "GPU probe").set("elements", 1))),
            "bench report JSON: paths[3].gates.probe.misread: missing");
  EXPECT_EQ(load_error(replaced(json, {"method", "replays"}, std::int64_t{1} << 40)),
            "bench report JSON: method.replays: 1099511627776 is out of range");
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

// The pairs come from speedup_pairs, as the Markdown's do: a negative control that passed every
// gate (a finding) still gets no ratio, in either rendering.
TEST(JsonReport, SpeedupsNeverNameANegativeControlEvenWhenValid) {
  BenchReport report = synthetic_gdn_report();
  PathResult& direct = path_named(report, "upstream-direct");
  direct.gates = path_named(report, "native").gates;
  direct.validity = evaluate_gates(direct.gates, report.thresholds);
  direct.timings = path_named(report, "native").timings;
  ASSERT_TRUE(direct.validity.valid);
  const Json json = bench_report_to_json(report);
  EXPECT_EQ(json["speedups"].size(), 9u);
  for (const Json& entry : json["speedups"].items()) {
    EXPECT_NE(entry["candidate"].as_string(), "upstream-direct");
    EXPECT_NE(entry["reference"].as_string(), "upstream-direct");
  }
  EXPECT_THAT(render_markdown_report(report), ::testing::Not(HasSubstr("upstream-direct vs")));
}

TEST(JsonReport, NanErrorsSurviveAsNullAndStillFail) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "native").gates.reference[0].output_rel_l2 = std::nan("");
  // Re-judged INVALID, so recorded as such and never timed, as a run would have written it.
  path_named(report, "native").validity =
      evaluate_gates(path_named(report, "native").gates, report.thresholds);
  path_named(report, "native").timings.clear();
  const BenchReport back = bench_report_from_json(Json::parse(render_json_report(report)));
  const PathResult* native = back.path("native");
  EXPECT_TRUE(std::isnan(native->gates.reference[0].output_rel_l2));
  EXPECT_FALSE(evaluate_gates(native->gates, back.thresholds).valid);
}

// The samples are the record; a summary, byte total, ratio or flag that is not what they and the
// stages and checks give is a report contradicting itself, refused naming the member.
TEST(JsonReport, ADerivedFigureThatIsNotWhatItsDataGivesIsRefused) {
  const std::string text = bench_report_to_json(synthetic_gdn_report()).dump();
  EXPECT_NO_THROW(bench_report_from_json(Json::parse(text)));
  const auto edited = [&](const std::string& needle, const std::string& replacement) {
    std::string copy = text;
    const std::size_t at = copy.find(needle, copy.find("\"name\": \"native\""));
    EXPECT_NE(at, std::string::npos) << needle;
    if (at != std::string::npos) copy.replace(at, needle.size(), replacement);
    try {
      bench_report_from_json(Json::parse(copy));
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(edited("\"median\": 4.0,", "\"median\": 1.0,"),
              HasSubstr(".per_layer_us.median: recorded 1.0, its own data gives 4.0: the report "
                        "contradicts itself"));
  EXPECT_THAT(edited("\"count\": ", "\"count\": 7"), HasSubstr(".count: recorded"));
  EXPECT_THAT(edited("\"equal\": true", "\"equal\": false"),
              HasSubstr(".equal: recorded false, its own data gives true"));
  EXPECT_THAT(edited("\"launches\": ", "\"launches\": 9"),
              HasSubstr("the report contradicts itself"));
  EXPECT_THAT(edited("\"name\": \"native\"", "\"name\": \"native\", \"extra\": 1"),
              HasSubstr(".extra: is not a member of a bench report"));
  // Counts no run produces.
  EXPECT_THAT(edited("\"launches\": ", "\"launches\": -"),
              HasSubstr(".stages[0].launches: must be 1 or more"));
  EXPECT_THAT(edited("\"per_row\": ", "\"per_row\": -"), HasSubstr("a negative byte count"));
  EXPECT_THAT(edited("\"output_rel_l2\": ", "\"output_rel_l2\": -"),
              HasSubstr("a negative relative error"));
  EXPECT_THAT(edited("\"mismatches\": 0", "\"mismatches\": -1"), HasSubstr("-1 of "));
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
    EXPECT_STREQ(error.what(), "bench report JSON: layers: expected an integer, got a string");
  }
}

}  // namespace
}  // namespace layoutcheck
