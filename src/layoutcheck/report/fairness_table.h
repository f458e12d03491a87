// The fairness table: each path's stages with launches and bytes read and written per layer, a
// stage production does not run flagged, and a warning when the baseline holds such a stage (then
// every speed-up against it is overstated, as in the article's first 1.104×).
#pragma once

#include <string>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

std::string render_fairness_section(const BenchReport& report);

}  // namespace layoutcheck
