#include "layoutcheck/report/timing_chart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "bench/synthetic_report.h"
#include "report/report_text.h"

namespace layoutcheck {
namespace {

using namespace layoutcheck::testing;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST(TimingChart, IsOneSvgDocumentWithBalancedGroups) {
  const std::string svg = render_timing_chart(synthetic_gdn_report());
  EXPECT_THAT(svg, StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_EQ(count_of(svg, "<svg"), 1u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(count_of(svg, "<g "), count_of(svg, "</g>"));
  EXPECT_EQ(count_of(svg, "<text"), count_of(svg, "</text>"));
}

TEST(TimingChart, DrawsEveryValidPathWithAMarkerPerBatch) {
  const std::string svg = render_timing_chart(synthetic_gdn_report());
  for (const std::string name : {"baseline", "adapter+upstream", "native"}) {
    const std::string open = "<g class=\"path\" data-path=\"" + name + "\">";
    ASSERT_EQ(count_of(svg, open), 1u) << name;
    const std::string group =
        svg.substr(svg.find(open), svg.find("</g>", svg.find(open)) - svg.find(open));
    EXPECT_EQ(count_of(group, "<polyline"), 1u);
    EXPECT_EQ(count_of(group, "<path d="), 3u) << "one p10–p90 whisker per batch";
  }
}

TEST(TimingChart, BandwidthPanelForEveryValidPath) {
  const std::string svg = render_timing_chart(synthetic_gdn_report());
  EXPECT_EQ(count_of(svg, "<g class=\"fraction\""), 3u);
  EXPECT_THAT(svg, HasSubstr("% of copy bandwidth</text>"));
  EXPECT_THAT(svg, Not(HasSubstr("class=\"fraction\" data-path=\"upstream-direct\"")));
}

TEST(TimingChart, InvalidPathOnlyInTheLegend) {
  const std::string svg = render_timing_chart(synthetic_gdn_report());
  EXPECT_THAT(svg, Not(HasSubstr("data-path=\"upstream-direct\"")));
  EXPECT_THAT(svg, HasSubstr(">upstream-direct: INVALID</text>"));
  EXPECT_THAT(svg, HasSubstr("not timed, never compared"));
}

TEST(TimingChart, FloorLineAndLabels) {
  const std::string svg = render_timing_chart(synthetic_gdn_report());
  EXPECT_EQ(count_of(svg, "class=\"floor\""), 1u);
  EXPECT_THAT(svg, HasSubstr(">floor: minimum traffic</text>"));
  EXPECT_THAT(svg, HasSubstr("time per layer, µs (log scale)"));
  EXPECT_THAT(svg, HasSubstr("copy BW 4.00 TB/s (this run)"));
  for (const std::string batch : {">1<", ">64<", ">256<"}) EXPECT_THAT(svg, HasSubstr(batch));
}

TEST(TimingChart, EscapesNames) {
  BenchReport report = synthetic_gdn_report();
  path_named(report, "native").name = "native<v2>&co";
  const std::string svg = render_timing_chart(report);
  EXPECT_THAT(svg, HasSubstr("native&lt;v2&gt;&amp;co"));
  EXPECT_THAT(svg, Not(HasSubstr("native<v2>")));
}

TEST(TimingChart, LinearWhenTheDataSpansLessThanADecade) {
  BenchReport report = synthetic_gdn_report();
  report.batches = {64};
  for (PathResult& path : report.paths)
    if (!path.timings.empty()) path.timings = {path.timings[1]};
  const std::string svg = render_timing_chart(report);
  EXPECT_THAT(svg, HasSubstr("time per layer, µs</text>"));
  EXPECT_THAT(svg, Not(HasSubstr("log scale")));
}

TEST(TimingChart, NothingValidStillRenders) {
  BenchReport report = synthetic_gdn_report();
  for (PathResult& path : report.paths) path.validity = {false, {"forced"}};
  const std::string svg = render_timing_chart(report);
  EXPECT_EQ(count_of(svg, "class=\"path\""), 0u);
  EXPECT_EQ(count_of(svg, ": INVALID</text>"), 4u);
}

}  // namespace
}  // namespace layoutcheck
