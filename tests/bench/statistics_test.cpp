#include "layoutcheck/bench/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace layoutcheck {
namespace {

TEST(Quantile, InterpolatesBetweenClosestRanks) {
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.1), 1.3);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.9), 3.7);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 1.0), 4.0);
}

TEST(Quantile, DoesNotDependOnSampleOrder) {
  EXPECT_DOUBLE_EQ(quantile({9, 1, 5, 3, 7}, 0.5), 5.0);
  EXPECT_DOUBLE_EQ(quantile({9, 1, 5, 3, 7}, 0.25), 3.0);
}

TEST(Quantile, ExactRankIgnoresAnInfiniteNeighbour) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_DOUBLE_EQ(quantile({1, 2, inf}, 0.5), 2.0);
  EXPECT_DOUBLE_EQ(quantile({1, 2, inf}, 0.0), 1.0);
  EXPECT_EQ(quantile({1, 2, inf}, 1.0), inf);
  EXPECT_DOUBLE_EQ(summarize({inf, 1, 2}).median, 2.0);
}

TEST(Quantile, RejectsUnusableInput) {
  EXPECT_THROW(quantile({}, 0.5), std::invalid_argument);
  EXPECT_THROW(quantile({1.0, std::nan("")}, 0.5), std::invalid_argument);
  EXPECT_THROW(quantile({1.0}, 1.5), std::invalid_argument);
  EXPECT_THROW(quantile({1.0}, -0.1), std::invalid_argument);
}

TEST(Summarize, OneToTen) {
  const Summary summary = summarize({10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  EXPECT_EQ(summary.count, 10u);
  EXPECT_DOUBLE_EQ(summary.median, 5.5);
  EXPECT_DOUBLE_EQ(summary.p10, 1.9);
  EXPECT_DOUBLE_EQ(summary.p90, 9.1);
  EXPECT_DOUBLE_EQ(summary.min, 1);
  EXPECT_DOUBLE_EQ(summary.max, 10);
}

TEST(Summarize, OddCountMedianIsTheMiddleSample) {
  const Summary summary = summarize({3.3, 3.1, 3.2, 9.9, 3.25});
  EXPECT_DOUBLE_EQ(summary.median, 3.25);
  EXPECT_LE(summary.p10, summary.median);
  EXPECT_GE(summary.p90, summary.median);
}

TEST(Summarize, SingleSampleIsEveryStatistic) {
  const Summary summary = summarize({4.5});
  EXPECT_EQ(summary.count, 1u);
  EXPECT_DOUBLE_EQ(summary.median, 4.5);
  EXPECT_DOUBLE_EQ(summary.p10, 4.5);
  EXPECT_DOUBLE_EQ(summary.p90, 4.5);
}

TEST(Summarize, OutlierMovesTheSpreadNotTheMedian) {
  std::vector<double> samples(99, 2.0);
  samples.push_back(1000.0);
  const Summary summary = summarize(samples);
  EXPECT_DOUBLE_EQ(summary.median, 2.0);
  EXPECT_DOUBLE_EQ(summary.p90, 2.0);
  EXPECT_DOUBLE_EQ(summary.max, 1000.0);
}

}  // namespace
}  // namespace layoutcheck
