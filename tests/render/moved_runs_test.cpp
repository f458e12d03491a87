// Folding a diff's moved runs into moves: the moves hold exactly the runs (each once, in order
// within a move, one step apart), and on the shipped pairs a reviewer's reading of the change
// comes out: the cosine cache's two halves, a KV block's heads, Qwen3.5's fields spreading out.
#include "layoutcheck/render/moved_runs.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "layoutcheck/contract/parse.h"
#include "render/shipped_contract.h"

namespace layoutcheck {
namespace {

using RunKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

RunKey key(const Band& band) {
  return {band.consumer_begin, band.consumer_end, band.producer_begin, band.producer_end};
}

// Every run of `runs` is in exactly one move: a move of count n reaches from its first run to its
// last in n - 1 equal steps, and those n runs are all runs of the diff.
void expect_moves_hold_exactly_the_runs(const MovedRuns& runs, const std::vector<Move>& moves) {
  std::multiset<RunKey> all;
  runs.for_each([&](const Band& run) { all.insert(key(run)); });
  std::multiset<RunKey> covered;
  for (const Move& move : moves) {
    ASSERT_GE(move.count, 1);
    const std::int64_t steps = move.count - 1;
    const std::int64_t dc =
        steps ? (move.last.consumer_begin - move.first.consumer_begin) / steps : 0;
    const std::int64_t dp =
        steps ? (move.last.producer_begin - move.first.producer_begin) / steps : 0;
    const std::int64_t length = move.first.consumer_end - move.first.consumer_begin;
    for (std::int64_t i = 0; i < move.count; ++i) {
      const Band member{move.first.consumer_begin + i * dc,
                        move.first.consumer_begin + i * dc + length,
                        move.first.producer_begin + i * dp,
                        move.first.producer_begin + i * dp + length, move.first.field};
      EXPECT_EQ(all.count(key(member)), 1u) << "a move member that is no run";
      covered.insert(key(member));
    }
  }
  EXPECT_EQ(covered, all);
}

TEST(MovedRuns, TheCosineCacheHalvesAreTwoMoves) {
  const Contract half = shipped_contract("examples/rope_cos.half_split.yaml");
  const Contract interleaved = shipped_contract("examples/rope_cos.interleaved.yaml");
  const MovedRuns runs(half, interleaved);
  const std::optional<std::vector<Move>> moves = fold_moves(runs, 2000, 100000);
  ASSERT_TRUE(moves);
  ASSERT_EQ(moves->size(), 2u);  // 126 one-element runs: each half of the pairs moves as one
  EXPECT_EQ((*moves)[0].count, 63);
  EXPECT_EQ((*moves)[1].count, 63);
  expect_moves_hold_exactly_the_runs(runs, *moves);
}

TEST(MovedRuns, KvBlockHeadsAreOneMoveEach) {
  const Contract nhd = shipped_contract("examples/kv_cache.nhd.yaml");
  const Contract hnd = shipped_contract("examples/kv_cache.hnd.yaml");
  const MovedRuns runs(nhd, hnd);
  const std::optional<std::vector<Move>> moves = fold_moves(runs, 2000, 100000);
  ASSERT_TRUE(moves);
  EXPECT_EQ(moves->size(), 16u);  // per field, one band per head gathering its 16 tokens
  expect_moves_hold_exactly_the_runs(runs, *moves);
}

TEST(MovedRuns, QkvzFoldsItsSixtyOneRunsIntoAFewMoves) {
  const Contract flat = shipped_contract("gdn/qwen3_5.qkvz.yaml"),
                 next = shipped_contract("gdn/qwen3_next.qkvz.yaml");
  const MovedRuns runs(flat, next);
  const std::optional<std::vector<Move>> moves = fold_moves(runs, 2000, 100000);
  ASSERT_TRUE(moves);
  EXPECT_LE(moves->size(), 8u);
  expect_moves_hold_exactly_the_runs(runs, *moves);
  const std::optional<std::vector<Move>> each = each_run_a_move(runs, 2000);
  ASSERT_TRUE(each);
  EXPECT_EQ(each->size(), 61u);
  expect_moves_hold_exactly_the_runs(runs, *each);
}

TEST(MovedRuns, TooManyRunsOrMovesAreRefused) {
  const Contract hkv = shipped_contract("gdn/state.hkv.yaml"),
                 hvk = shipped_contract("gdn/state.hvk.yaml");
  const MovedRuns runs(hkv, hvk);
  EXPECT_FALSE(fold_moves(runs, 2000, 100000));  // 780288 runs
  const Contract flat = shipped_contract("gdn/qwen3_5.qkvz.yaml"),
                 next = shipped_contract("gdn/qwen3_next.qkvz.yaml");
  const MovedRuns qkvz(flat, next);
  EXPECT_FALSE(fold_moves(qkvz, 2, 100000));
  EXPECT_FALSE(each_run_a_move(qkvz, 60));
}

}  // namespace
}  // namespace layoutcheck
