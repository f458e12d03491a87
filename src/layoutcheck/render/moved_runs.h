// The runs a diff picture draws: every stretch of elements that moved between the producer's row
// and the consumer's, and those runs folded into moves, so that a field whose heads all move the
// same way is one band with a count rather than one band per head.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/diff/read_map.h"

namespace layoutcheck {

// Logical elements that moved: the consumer reads them at [consumer_begin, consumer_end), the
// producer holds them at [producer_begin, producer_end).
struct Band {
  std::int64_t consumer_begin = 0, consumer_end = 0, producer_begin = 0, producer_end = 0;
  std::size_t field = 0;  // index into the consumer's fields
};

// The moved runs of a diff: maximal runs over which both offsets step by one, in consumer element
// order, where they differ. Visited, not stored: a transposed 10^7-element state has as many runs
// as elements, and the picture needs only their count, their offsets and a few bands.
class MovedRuns {
 public:
  MovedRuns(const Contract& producer, const Contract& consumer)
      : producer_(producer),
        consumer_(consumer),
        consumer_offsets_(ReadMap::from_contract(consumer)),
        producer_offsets_(ReadMap::from_contract(producer)) {}

  // Both contracts are held by reference: temporaries would dangle.
  MovedRuns(Contract&&, const Contract&) = delete;
  MovedRuns(const Contract&, Contract&&) = delete;
  MovedRuns(Contract&&, Contract&&) = delete;

  template <class Visit>
  void for_each(Visit&& visit) const {
    std::int64_t consumer_start = 0;
    for (std::size_t f = 0; f < consumer_.fields.size(); ++f) {
      const Field& field = consumer_.fields[f];
      const Field* held = producer_.find_field(field.name);
      const std::int64_t producer_start =
          producer_.global_id({static_cast<std::size_t>(held - producer_.fields.data()), 0});
      Band band;
      auto flush = [&] {
        if (band.consumer_end > band.consumer_begin && band.consumer_begin != band.producer_begin)
          visit(band);
      };
      for (std::int64_t linear = 0; linear < field.elements(); ++linear) {
        const std::int64_t c =
            consumer_offsets_.offsets[static_cast<std::size_t>(consumer_start + linear)];
        const std::int64_t p =
            producer_offsets_.offsets[static_cast<std::size_t>(producer_start + linear)];
        if (linear > 0 && c == band.consumer_end && p == band.producer_end) {
          ++band.consumer_end, ++band.producer_end;
          continue;
        }
        flush();
        band = {c, c + 1, p, p + 1, f};
      }
      flush();
      consumer_start += field.elements();
    }
  }

 private:
  const Contract& producer_;
  const Contract& consumer_;
  ReadMap consumer_offsets_, producer_offsets_;
};

// Runs of one move: equal length, one field, each the same step further on both rows than the
// one before it in the move (Q's heads spreading from one block into every group).
struct Move {
  Band first, last;
  std::int64_t count = 1;

  // The ranges the move's runs span on each row.
  Band hull() const;
};

// The runs in MovedRuns order folded into moves. Interleaved moves are found too: with period k,
// runs i, i + k, i + 2k, ... form one move (the two components of a RoPE pair, the heads of a KV
// block read token by token); the period covering most runs per band wins, and a move of fewer
// than kMinMoveRuns runs is drawn run by run.
// @post nullopt when more than max_moves bands or max_runs runs would be needed (the caller draws
//       per rectangle instead); else moves whose runs, taken together, are exactly the runs.
inline constexpr std::int64_t kMinMoveRuns = 3;
std::optional<std::vector<Move>> fold_moves(const MovedRuns& runs, std::size_t max_moves,
                                            std::size_t max_runs);

// One move per run, for a zoom, where each run is seen where it lands.
std::optional<std::vector<Move>> each_run_a_move(const MovedRuns& runs, std::size_t max_moves);

}  // namespace layoutcheck
