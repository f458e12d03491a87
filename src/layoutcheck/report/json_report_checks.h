// What a report read back from report.json must satisfy before it is rendered: counts and sizes
// that make sense, names that resolve, and verdicts that follow from the recorded gate numbers.
// The verdicts are re-judged with evaluate_gates, never trusted: a hand-edited "valid": true would
// otherwise print a speed-up for a path whose output is wrong.
#pragma once

#include <string>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

// @post throws std::runtime_error naming the first offending JSON member, e.g.
//       "bench report JSON: paths[3].validity: upstream-direct: recorded verdict VALID but its
//       gates fail: GPU probe: 15578 of 16480 elements misread; ...".
void check_recorded_report(const BenchReport& report);

// Throws std::runtime_error("bench report JSON: <member>: <what>"), or without the member when it
// is "" (the document as a whole).
[[noreturn]] void reject_report_member(const std::string& member, const std::string& what);

}  // namespace layoutcheck
