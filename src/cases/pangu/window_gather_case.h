// Pangu-Weather's window gather as a case (layoutcheck/cases/case.h): the token grid x
// (contracts/pangu/grid.yaml) copied window by window into `windows` (contracts/pangu/
// windows.yaml, or windows.shifted.yaml for the odd blocks), padding slots zero. Pure data
// movement: the bit-plane decoder recovers, for every slot, the grid element it holds, so a
// gather whose index map rolls the wrong axis, splits the padding on the wrong side or reads a
// padding slot's -1 as token 0 is caught and each misplaced token named.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

std::shared_ptr<const Case> make_pangu_window_gather_case();

}  // namespace layoutcheck
