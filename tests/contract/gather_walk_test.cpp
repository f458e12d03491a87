// The order the gather kernels take a map's slots in: every slot once, by the token it reads, the
// zero-writing slots last; on the shipped window maps the source is then read in order and the
// slots written in runs of a window row.
#include "layoutcheck/contract/gather_walk.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

TEST(GatherWalk, TakesEverySlotOnceByTokenThenTheZeroSlots) {
  const std::vector<std::int32_t> map = {3, -1, 0, 3, 2, -1, 1};
  const std::vector<GatherStep> want = {{2, 0}, {6, 1}, {4, 2}, {0, 3}, {3, 3}, {1, -1}, {5, -1}};
  EXPECT_EQ(gather_walk(map, WalkOrder::by_token), want);
  EXPECT_TRUE(gather_walk(std::vector<std::int32_t>{}, WalkOrder::by_token).empty());
}

TEST(GatherWalk, BySlotIsTheMapItself) {
  const std::vector<std::int32_t> map = {3, -1, 0};
  const std::vector<GatherStep> want = {{0, 3}, {1, -1}, {2, 0}};
  EXPECT_EQ(gather_walk(map, WalkOrder::by_slot), want);
}

TEST(GatherWalk, RefusesAnEntryBelowMinusOne) {
  const std::vector<std::int32_t> map = {0, 1, -2};
  try {
    gather_walk(map, WalkOrder::by_slot);
    FAIL() << "an entry of -2 was walked";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("entry 2 is -2"));
  }
}

// Pangu's shifted windows at (8, 46, 90): the walk reads token after token, and most steps write
// the slot after the one before (a window row is 12 neighbouring tokens).
TEST(GatherWalk, ReadsAWindowMapsSourceInOrderAndWritesRuns) {
  LoadOptions options;
  options.overrides = {{"Z", 8}, {"LAT", 46}, {"LON", 90}, {"C", 384}};
  const GatherMap map = make_gather_map(load_contract(
      std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/windows.shifted.yaml", options));
  const std::vector<GatherStep> walk = gather_walk(map.slots, WalkOrder::by_token);
  ASSERT_EQ(walk.size(), map.slots.size());
  std::vector<int> seen(map.slots.size(), 0);
  std::int64_t runs = 0;
  for (std::size_t s = 0; s < walk.size(); ++s) {
    ++seen[static_cast<std::size_t>(walk[s].slot)];
    EXPECT_EQ(walk[s].token, map.slots[static_cast<std::size_t>(walk[s].slot)]);
    if (static_cast<std::int64_t>(s) < map.tokens)
      EXPECT_EQ(walk[s].token, s);
    else
      EXPECT_EQ(walk[s].token, -1);
    runs += s > 0 && walk[s].slot == walk[s - 1].slot + 1;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(seen.size()));
  EXPECT_GT(runs * 10, static_cast<std::int64_t>(walk.size()) * 8) << runs << " steps follow on";
}

}  // namespace
}  // namespace layoutcheck
