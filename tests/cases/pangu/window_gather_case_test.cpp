// The pangu-window-gather case through the shared probe engine: its reference (a gather by the
// contract's generated map) is clean against the window contracts at both real grids and both
// shifts, and each mutant is caught with its own diagnosis: the rolls on the wrong axes and the
// padding on the wrong side as misreads, a -1 read as token 0 as slots that copy where the
// reference writes zero.
#include "cases/pangu/window_gather_case.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/probe/case_probe.h"

namespace layoutcheck {
namespace {

struct Grid {
  std::int64_t LAT, LON;
};

CaseLayouts layouts_for(const Grid& grid, bool shifted) {
  LoadOptions options;  // C = 2: the layout is the tokens'; two channels show they travel whole
  options.overrides = {{"LAT", grid.LAT}, {"LON", grid.LON}, {"C", 2}};
  const std::string folder = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/";
  CaseLayouts layouts;
  layouts["x"] = load_contract(folder + "grid.yaml", options);
  layouts["windows"] =
      load_contract(folder + (shifted ? "windows.shifted.yaml" : "windows.yaml"), options);
  return layouts;
}

CaseVerdict probe(CaseRunner& runner, const CaseLayouts& layouts) {
  CaseProbeRequest request;
  request.buffer = "x";
  request.model = layouts;
  request.claimed = layouts;
  return probe_case(*make_pangu_window_gather_case(), runner, kDataMovementDecoder, request);
}

class WindowGather : public ::testing::TestWithParam<std::tuple<Grid, bool>> {};

TEST_P(WindowGather, TheReferenceIsExactlyTheContractsMap) {
  const auto [grid, shifted] = GetParam();
  const CaseLayouts layouts = layouts_for(grid, shifted);
  const auto reference = make_pangu_window_gather_case()->reference(layouts);
  const CaseVerdict verdict = probe(*reference, layouts);
  EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  EXPECT_EQ(verdict.reads.misread, 0);
}

// The bit-plane sweep says how far it is, run by run: two runs (all zero, all one) and a bit plane
// per bit of the largest offset, for the reference and then the kernel.
TEST(WindowGatherProgress, EveryRunOfTheSweepIsCounted) {
  const CaseLayouts layouts = layouts_for({46, 90}, true);
  const auto reference = make_pangu_window_gather_case()->reference(layouts);
  CaseProbeRequest request;
  request.buffer = "x";
  request.model = layouts;
  request.claimed = layouts;
  std::vector<std::pair<std::int64_t, std::int64_t>> calls;
  request.progress = [&](std::int64_t done, std::int64_t total) { calls.emplace_back(done, total); };
  const CaseVerdict verdict =
      probe_case(*make_pangu_window_gather_case(), *reference, kDataMovementDecoder, request);
  ASSERT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  // 8 x 46 x 90 tokens of 2 channels, 2 rows: 132 480 offsets, 18 bits.
  ASSERT_EQ(calls.size(), 40u);
  for (std::size_t i = 0; i < calls.size(); ++i)
    EXPECT_EQ(calls[i], std::make_pair(static_cast<std::int64_t>(i + 1), std::int64_t{40}));
}

INSTANTIATE_TEST_SUITE_P(RealGrids, WindowGather,
                         ::testing::Combine(::testing::Values(Grid{91, 180}, Grid{46, 90}),
                                          ::testing::Bool()));

TEST(WindowGatherMutants, EachIsCaughtWithItsDiagnosis) {
  const auto subject = make_pangu_window_gather_case();
  {
    const CaseLayouts layouts = layouts_for({46, 90}, true);
    const auto mutant = subject->mutant("shift_on_wrong_axes", layouts);
    const CaseVerdict verdict = probe(*mutant, layouts);
    EXPECT_FALSE(verdict.clean());
    EXPECT_GT(verdict.reads.misread, 0) << case_verdict_text(verdict);
  }
  {
    // lat 91 -> 96 pads +2 / +3; the mutant +3 / +2 (at 46 -> 48 both sides are 1: no bug).
    const CaseLayouts layouts = layouts_for({91, 180}, false);
    const auto mutant = subject->mutant("padding_wrong_side", layouts);
    const CaseVerdict verdict = probe(*mutant, layouts);
    EXPECT_FALSE(verdict.clean());
    EXPECT_GT(verdict.reads.misread, 0) << case_verdict_text(verdict);
  }
  {
    const CaseLayouts layouts = layouts_for({46, 90}, false);
    const auto mutant = subject->mutant("minus_one_as_token", layouts);
    const CaseVerdict verdict = probe(*mutant, layouts);
    EXPECT_FALSE(verdict.clean());
    EXPECT_EQ(verdict.reads.misread, 0) << case_verdict_text(verdict);
    ASSERT_FALSE(verdict.findings.empty());
    EXPECT_NE(verdict.findings.front().message.find("where the reference writes a constant"),
              std::string::npos)
        << verdict.findings.front().message;
  }
}

}  // namespace
}  // namespace layoutcheck
