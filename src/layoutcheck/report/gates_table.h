// The gates table: for every path, what was checked before timing and the verdict: the reference
// check (worst over the benched batches), the multi-step gate's checkpoints, the bitwise checks,
// determinism and the probes' misread count, with the thresholds they were held to.
#pragma once

#include <string>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

std::string render_gates_section(const BenchReport& report);

}  // namespace layoutcheck
