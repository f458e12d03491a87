// The reverse of Pangu-Weather's window partition as a case (layoutcheck/cases/case.h): the
// tokens window by window (contracts/pangu/windows.shifted.yaml by default) back onto the grid
// (contracts/pangu/grid.yaml), the padding cropped and the shift undone. Pure data movement: the
// bit-plane decoder names, for every grid element, the slot it came from, so a reverse that
// leaves the roll in place or crops the wrong side is caught and each misplaced token named.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

std::shared_ptr<const Case> make_pangu_window_reverse_case();

}  // namespace layoutcheck
