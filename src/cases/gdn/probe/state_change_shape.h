// The shape of one value head's state response, which names some inputs without predicting any
// value: what still works when a kernel's numbers differ from the reference (a numeric bug), as
// long as it runs the delta rule on a constant state.
//   decay input a:  S' = d*S + k (x) u with S constant and u uniform: every row of delta S is
//                   constant along v (or, written transposed, every column along k)
//   beta logit b:   only u scales: delta S = k (x) du, rank one, varying along both axes
//   state element:  only the column it sits in moves (a row, written transposed)
// Deltas are K x V in the logical order the claimed state layout places them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace layoutcheck {

enum class StateChange { decay_like, update_like };

// @pre delta has K*V entries; slack is the change below which entries count as equal.
// @post decay_like when every row (or every column) is constant, update_like when delta is
//       rank one and neither, nothing when it is neither (e.g. both inputs moved).
std::optional<StateChange> classify_state_change(std::span<const double> delta, std::int64_t K,
                                                 std::int64_t V, double slack);

// Where a change confined to one line sits.
struct StateLine {
  bool column = true;  // all changes in column `index` (else in row `index`)
  std::int64_t index = 0;
};

// @post the line holding every non-zero entry of delta, when there is one (a single changed entry
//       counts as a column).
std::optional<StateLine> single_changed_line(std::span<const double> delta, std::int64_t K,
                                             std::int64_t V);

}  // namespace layoutcheck
