#include "layoutcheck/report/chart_axis.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace layoutcheck {
namespace {

using ::testing::ElementsAre;

TEST(ChartAxis, LogarithmicOverADecadeOrMore) {
  const ChartAxis axis(1.5, 560, 400, 0);
  EXPECT_TRUE(axis.logarithmic());
  EXPECT_DOUBLE_EQ(axis.low(), 1.0);
  EXPECT_DOUBLE_EQ(axis.high(), 1000.0);
  EXPECT_DOUBLE_EQ(axis.pixel(1.0), 400);
  EXPECT_DOUBLE_EQ(axis.pixel(1000.0), 0);
  EXPECT_NEAR(axis.pixel(10.0), 400 - 400.0 / 3, 1e-9);
  EXPECT_THAT(axis.ticks(), ElementsAre(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000));
}

TEST(ChartAxis, WideLogRangesTickOnlyDecades) {
  const ChartAxis axis(0.5, 20000, 0, 100);
  EXPECT_THAT(axis.ticks(), ElementsAre(1, 10, 100, 1000, 10000));
}

TEST(ChartAxis, LinearUnderADecadeStartingAtZero) {
  const ChartAxis axis(3.0, 9.0, 0, 100);
  EXPECT_FALSE(axis.logarithmic());
  EXPECT_DOUBLE_EQ(axis.low(), 0.0);
  EXPECT_DOUBLE_EQ(axis.high(), 10.0);
  EXPECT_THAT(axis.ticks(), ElementsAre(0, 2, 4, 6, 8, 10));
  EXPECT_DOUBLE_EQ(axis.pixel(5.0), 50);
}

TEST(ChartAxis, DegenerateRangesAreWidened) {
  const ChartAxis single(4.0, 4.0, 0, 100);
  EXPECT_LT(single.low(), 4.0);
  EXPECT_GT(single.high(), 4.0);
  const ChartAxis empty(1.0 / 0.0, 0.0, 0, 100);  // no data at all
  EXPECT_LT(empty.low(), empty.high());
  EXPECT_FALSE(empty.ticks().empty());
}

}  // namespace
}  // namespace layoutcheck
