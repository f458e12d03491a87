#include "layoutcheck/bench/result.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "bench/synthetic_report.h"

namespace layoutcheck {
namespace {

using layoutcheck::testing::path_named;
using layoutcheck::testing::synthetic_gdn_report;
using ::testing::ElementsAre;

TEST(CopyBandwidth, BytesOverMedianTime) {
  const BenchReport report = synthetic_gdn_report();
  EXPECT_DOUBLE_EQ(report.copy_bandwidth.bytes_per_second(), 4e12);
  CopyBandwidth unmeasured;
  EXPECT_THROW(unmeasured.bytes_per_second(), std::invalid_argument);
}

TEST(Speedup, RatioOfMediansBetweenValidPaths) {
  const BenchReport report = synthetic_gdn_report();
  EXPECT_DOUBLE_EQ(*speedup(report, "native", "baseline", 1), 10.0 / 4.0);
  EXPECT_DOUBLE_EQ(*speedup(report, "native", "adapter+upstream", 256), 470.0 / 420.0);
  EXPECT_DOUBLE_EQ(*speedup(report, "baseline", "native", 64), 105.0 / 140.0);
}

TEST(Speedup, NeverForAnInvalidPath) {
  BenchReport report = synthetic_gdn_report();
  EXPECT_FALSE(speedup(report, "upstream-direct", "baseline", 1));
  EXPECT_FALSE(speedup(report, "baseline", "upstream-direct", 1));
  // Even if an invalid path somehow carries timings, no ratio comes out of it.
  path_named(report, "upstream-direct").timings = path_named(report, "native").timings;
  EXPECT_FALSE(speedup(report, "upstream-direct", "baseline", 1));
  path_named(report, "baseline").validity = {false, {"broken"}};
  EXPECT_FALSE(speedup(report, "native", "baseline", 1));
}

TEST(Speedup, NoneForMissingPathsOrBatches) {
  const BenchReport report = synthetic_gdn_report();
  EXPECT_FALSE(speedup(report, "native", "nonexistent", 1));
  EXPECT_FALSE(speedup(report, "native", "baseline", 8));
}

using Pair = std::pair<std::string, std::string>;

TEST(SpeedupPairs, EveryPathAgainstTheBaselineThenTheComparisons) {
  EXPECT_THAT(speedup_pairs(synthetic_gdn_report()),
              ElementsAre(Pair{"adapter+upstream", "baseline"}, Pair{"native", "baseline"},
                          Pair{"native", "adapter+upstream"}));
}

TEST(SpeedupPairs, NeverANegativeControlNorAnInvalidPathNorARepeat) {
  BenchReport report = synthetic_gdn_report();
  // A control that passed every gate is a finding, not a candidate.
  PathResult& direct = path_named(report, "upstream-direct");
  direct.gates = path_named(report, "native").gates;
  direct.validity = {true, {}};
  path_named(report, "adapter+upstream").validity = {false, {"broken"}};
  report.comparisons = {{"native", "baseline"},
                        {"upstream-direct", "native"},
                        {"native", "native"},
                        {"native", "ghost"}};
  EXPECT_THAT(speedup_pairs(report), ElementsAre(Pair{"native", "baseline"}));
  path_named(report, "baseline").validity = {false, {"broken"}};
  EXPECT_TRUE(speedup_pairs(report).empty());
}

TEST(MinimumFloor, AtTheMeasuredBandwidth) {
  const BenchReport report = synthetic_gdn_report();
  EXPECT_DOUBLE_EQ(minimum_floor_us(report, 1),
                   static_cast<double>(report.minimum_traffic.at(1)) / 4e12 * 1e6);
}

TEST(Findings, NegativeControlThatFailsIsNotAFinding) {
  const BenchReport report = synthetic_gdn_report();
  EXPECT_TRUE(findings(report).empty());
}

TEST(Findings, InvalidPathAndPassingControlAre) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "native").validity = {false, {"reference check: ..."}};
  path_named(report, "upstream-direct").validity = {true, {}};
  EXPECT_THAT(findings(report),
              ElementsAre("native is INVALID",
                          "upstream-direct is a negative control but passed every gate"));
}

TEST(PathResult, TimingAtBatch) {
  const BenchReport report = synthetic_gdn_report();
  const PathResult* native = report.path("native");
  ASSERT_NE(native, nullptr);
  ASSERT_NE(native->timing_at(64), nullptr);
  EXPECT_DOUBLE_EQ(native->timing_at(64)->per_layer.median, 105.0);
  EXPECT_EQ(native->timing_at(8), nullptr);
  EXPECT_EQ(report.path("upstream-direct")->timings.size(), 0u);
}

}  // namespace
}  // namespace layoutcheck
