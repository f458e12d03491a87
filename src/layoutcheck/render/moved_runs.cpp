#include "layoutcheck/render/moved_runs.h"

#include <algorithm>

namespace layoutcheck {
namespace {

constexpr std::size_t kMaxPeriod = 64;  // the most moves interleaved run by run that are found

bool same_kind(const Band& a, const Band& b) {
  return a.field == b.field &&
         a.consumer_end - a.consumer_begin == b.consumer_end - b.consumer_begin;
}

struct Step {
  std::int64_t consumer = 0, producer = 0;
  friend bool operator==(const Step&, const Step&) = default;
};

Step step(const Band& from, const Band& to) {
  return {to.consumer_begin - from.consumer_begin, to.producer_begin - from.producer_begin};
}

// How many runs from `at` on follow period k: runs j and j + k of one kind, one step apart, the
// same step for every j (0 when runs at and at + k already differ).
std::size_t period_length(const std::vector<Band>& runs, std::size_t at, std::size_t k) {
  if (at + k >= runs.size() || !same_kind(runs[at], runs[at + k])) return 0;
  const Step expected = step(runs[at], runs[at + k]);
  std::size_t n = 0;
  while (at + n + k < runs.size() && same_kind(runs[at + n], runs[at + n + k]) &&
         same_kind(runs[at], runs[at + n]) && step(runs[at + n], runs[at + n + k]) == expected)
    ++n;
  return n + k;  // runs covered: the k starts and the n that follow them
}

}  // namespace

Band Move::hull() const {
  return {std::min(first.consumer_begin, last.consumer_begin),
          std::max(first.consumer_end, last.consumer_end),
          std::min(first.producer_begin, last.producer_begin),
          std::max(first.producer_end, last.producer_end), first.field};
}

std::optional<std::vector<Move>> fold_moves(const MovedRuns& moved, std::size_t max_moves,
                                            std::size_t max_runs) {
  std::vector<Band> runs;
  bool too_many = false;
  moved.for_each([&](const Band& run) {
    if (runs.size() < max_runs)
      runs.push_back(run);
    else
      too_many = true;
  });
  if (too_many) return std::nullopt;
  std::vector<Move> moves;
  for (std::size_t at = 0; at < runs.size();) {
    std::size_t best_period = 0, best_covered = 0;
    for (std::size_t k = 1; k <= kMaxPeriod && at + k < runs.size(); ++k) {
      const std::size_t covered = period_length(runs, at, k);
      if (covered < static_cast<std::size_t>(kMinMoveRuns) * k) continue;
      // More runs per band wins; on a tie the shorter period.
      if (best_period == 0 || covered * best_period > best_covered * k) {
        best_period = k;
        best_covered = covered;
      }
    }
    if (best_period == 0) {
      moves.push_back({runs[at], runs[at], 1});
      ++at;
    } else {
      for (std::size_t lane = 0; lane < best_period; ++lane) {
        const std::size_t count = (best_covered - lane + best_period - 1) / best_period;
        moves.push_back({runs[at + lane], runs[at + lane + (count - 1) * best_period],
                         static_cast<std::int64_t>(count)});
      }
      at += best_covered;
    }
    if (moves.size() > max_moves) return std::nullopt;
  }
  return moves;
}

std::optional<std::vector<Move>> each_run_a_move(const MovedRuns& moved, std::size_t max_moves) {
  std::vector<Move> moves;
  bool too_many = false;
  moved.for_each([&](const Band& run) {
    if (moves.size() < max_moves)
      moves.push_back({run, run, 1});
    else
      too_many = true;
  });
  if (too_many) return std::nullopt;
  return moves;
}

}  // namespace layoutcheck
