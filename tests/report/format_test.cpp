#include "layoutcheck/report/format.h"

#include <gtest/gtest.h>

namespace layoutcheck {
namespace {

TEST(Format, ThreeSignificantDigits) {
  EXPECT_EQ(format_significant(3.2345), "3.23");
  EXPECT_EQ(format_significant(17.04), "17.0");
  EXPECT_EQ(format_significant(153.4), "153");
  EXPECT_EQ(format_significant(1234.4), "1234");
  EXPECT_EQ(format_significant(9.999), "10.0");
  EXPECT_EQ(format_significant(0.155), "0.155");
  EXPECT_EQ(format_significant(0.0), "0.00");
}

TEST(Format, Bytes) {
  EXPECT_EQ(format_bytes(std::int64_t{192}), "192 B");
  EXPECT_EQ(format_bytes(std::int64_t{82560}), "82.6 kB");
  EXPECT_EQ(format_bytes(std::int64_t{6542144}), "6.54 MB");
  EXPECT_EQ(format_bytes(std::int64_t{999'999}), "1.00 MB");
  EXPECT_EQ(format_bytes(ByteCount{82560, 6459584}), "6.46 MB/row + 82.6 kB");
  EXPECT_EQ(format_bytes(ByteCount{0, 384}), "384 B/row");
  EXPECT_EQ(format_bytes(ByteCount{256, 0}), "256 B");
}

TEST(Format, RatesAndRatios) {
  EXPECT_EQ(format_bandwidth(4.26e12), "4.26 TB/s");
  EXPECT_EQ(format_percent(0.8812), "88.1 %");
  EXPECT_EQ(format_ratio(1.189), "1.19×");
  EXPECT_EQ(format_us(3.23), "3.23 µs");
  EXPECT_EQ(format_spread(Summary{5, 3.2, 3.1, 3.4, 3.0, 3.5}), "3.20 µs [3.10–3.40]");
}

}  // namespace
}  // namespace layoutcheck
