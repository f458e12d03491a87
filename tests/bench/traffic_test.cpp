#include "layoutcheck/bench/traffic.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "cases/gdn/bench/gdn_traffic.h"

namespace layoutcheck {
namespace {

TEST(ByteCount, GrowsPerRow) {
  const ByteCount bytes{100, 7};
  EXPECT_EQ(bytes.at(0), 100);
  EXPECT_EQ(bytes.at(1), 107);
  EXPECT_EQ(bytes.at(64), 100 + 7 * 64);
  EXPECT_EQ((bytes + ByteCount{1, 2}), (ByteCount{101, 9}));
}

TEST(ByteCount, RejectsOverflowAndNegativeBatch) {
  const ByteCount huge{0, std::numeric_limits<std::int64_t>::max() / 2};
  EXPECT_THROW(huge.at(3), std::overflow_error);
  EXPECT_THROW((ByteCount{1, 1}.at(-1)), std::invalid_argument);
  // Stages added up: a total past 64 bits is an error, never a wrapped, small one.
  const std::int64_t quarter = std::int64_t{1} << 62;
  ByteCount total{0, quarter};
  total += ByteCount{0, quarter - 1};
  EXPECT_EQ(total.per_row, std::numeric_limits<std::int64_t>::max());
  EXPECT_THROW(total += (ByteCount{0, 1}), std::overflow_error);
  StageTraffic stage;
  stage.launches = std::numeric_limits<std::int64_t>::max();
  EXPECT_THROW(total_launches({stage, stage}), std::overflow_error);
}

TEST(Floor, BytesOverBandwidth) {
  EXPECT_DOUBLE_EQ(floor_us(4'000'000, 4e12), 1.0);
  EXPECT_DOUBLE_EQ(bandwidth_fraction(4'000'000, 2.0, 4e12), 0.5);
  EXPECT_THROW(floor_us(1, 0.0), std::invalid_argument);
  EXPECT_THROW(bandwidth_fraction(1, 0.0, 1e12), std::invalid_argument);
}

TEST(Totals, SumStages) {
  const std::vector<StageTraffic> stages = {{"a", 1, {10, 1}, {0, 2}, true, ""},
                                            {"b", 2, {0, 3}, {5, 4}, false, "copy"}};
  EXPECT_EQ(total_launches(stages), 3);
  EXPECT_EQ(total_bytes(stages), (ByteCount{15, 10}));
}

// The default shape, counted by hand: per row qkvz 32768 B, ba 192 B, conv state 61440 B and
// state 3145728 B read; conv state, state and output (12288 B) written. Weights: conv 81920 B,
// A_log + dt_bias 384 B, norm weight 256 B.
TEST(GdnTraffic, MinimumAtTheDefaultShape) {
  const ByteCount minimum = gdn_minimum_traffic(GdnShape{});
  EXPECT_EQ(minimum.per_row, 32768 + 192 + 61440 + 3145728 + 61440 + 3145728 + 12288);
  EXPECT_EQ(minimum.fixed, 81920 + 384 + 256);
}

// Design §8's anchor table: state floor 1.5 / 95 / 379 µs at 4.26 TB/s for batch 1 / 64 / 256.
// The minimum also moves the inputs and the conv state, so it sits a little above the state alone.
TEST(GdnTraffic, FloorMatchesTheAnchorTable) {
  const ByteCount minimum = gdn_minimum_traffic(GdnShape{});
  const double bandwidth = 4.26e12;
  EXPECT_NEAR(floor_us(minimum.at(1), bandwidth), 1.5, 0.1);
  EXPECT_GT(floor_us(minimum.at(64), bandwidth), 94.5);
  EXPECT_LT(floor_us(minimum.at(64), bandwidth), 95.0 * 1.03);
  EXPECT_GT(floor_us(minimum.at(256), bandwidth), 378.0);
  EXPECT_LT(floor_us(minimum.at(256), bandwidth), 379.0 * 1.03);
}

TEST(GdnTraffic, FusedPathsMoveTheMinimum) {
  const GdnShape shape;
  const StageTraffic fused = gdn_fused_stage(shape, "native");
  EXPECT_EQ(fused.launches, 1);
  EXPECT_TRUE(fused.production_runs_it);
  EXPECT_EQ(fused.bytes_read + fused.bytes_written, gdn_minimum_traffic(shape));
}

TEST(GdnTraffic, AdapterStagesAreFlaggedAndAddTheirCopies) {
  const GdnShape shape;
  const std::vector<StageTraffic> stages = gdn_adapter_upstream_stages(shape);
  ASSERT_EQ(stages.size(), 3u);
  EXPECT_FALSE(stages[0].production_runs_it);
  EXPECT_FALSE(stages[1].production_runs_it);
  EXPECT_TRUE(stages[2].production_runs_it);
  const std::int64_t copies = 2 * 2 * (shape.qkvz_elements() + shape.ba_elements());
  EXPECT_EQ(total_bytes(stages).per_row, gdn_minimum_traffic(shape).per_row + copies);
  EXPECT_EQ(total_launches(stages), 3);
}

TEST(GdnTraffic, BaselineIsProductionAndMovesMoreThanTheMinimum) {
  const GdnShape shape;
  const std::vector<StageTraffic> stages = gdn_baseline_stages(shape);
  EXPECT_EQ(total_launches(stages), 4);
  for (const StageTraffic& stage : stages) EXPECT_TRUE(stage.production_runs_it) << stage.name;
  EXPECT_GT(total_bytes(stages).per_row, gdn_minimum_traffic(shape).per_row);
}

TEST(GdnTraffic, FollowsTheShape) {
  GdnShape small{2, 6, 8, 4, 3};
  const ByteCount minimum = gdn_minimum_traffic(small);
  const std::int64_t conv = 2 * 2 * 8 + 6 * 4;
  EXPECT_EQ(minimum.per_row,
            2 * (conv + 6 * 4) + 2 * 12 + 2 * 2 * 2 * conv + 2 * 4 * 6 * 8 * 4 + 2 * 6 * 4);
  EXPECT_EQ(minimum.fixed, 2 * conv * 3 + 2 * 4 * 6 + 2 * 4);
}

}  // namespace
}  // namespace layoutcheck
