// report.md: the table a reviewer pastes into a pull request. Per batch a row per path (time per
// layer with spread, hot figure, traffic, floor, % of copy bandwidth, speed-up vs the baseline);
// INVALID paths show why, their misread count and output error, and never a ratio. Then the
// speed-ups between VALID paths, the fairness table and the gates table.
#pragma once

#include <string>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

std::string render_markdown_report(const BenchReport& report);

}  // namespace layoutcheck
