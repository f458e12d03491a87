// chart.svg: time per layer against batch for every VALID path (median, with p10–p90 whiskers),
// and the floor line (minimum traffic ÷ copy bandwidth measured in the same run). Axes are
// logarithmic where the data spans a decade or more, linear otherwise. INVALID paths appear in the
// legend only, marked INVALID: they have no times to draw.
#pragma once

#include <string>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

std::string render_timing_chart(const BenchReport& report);

}  // namespace layoutcheck
