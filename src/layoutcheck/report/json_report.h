// report.json: the whole result model, including every timing sample, so a report can be read
// back, re-judged and re-rendered without a GPU (the tests do this with a recorded H200 run).
// Derived figures (floor, fraction of copy bandwidth, speed-ups) are written for consumers and
// recomputed, not read, when a report is loaded; each path's verdict is re-judged from its gate
// numbers and must agree with the recorded one (json_report_checks.h).
#pragma once

#include <string>
#include <string_view>

#include "layoutcheck/bench/result.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

// A run with serial launches is written in the first format, which every reader understands; one
// with overlapped launches in the second (method.launch, the overlapped-launch gate), so that a
// reader that cannot show them refuses it instead of rendering it as serial.
inline constexpr std::string_view kBenchReportSchema = "layoutcheck-bench/1";
inline constexpr std::string_view kOverlappedBenchReportSchema = "layoutcheck-bench/2";

Json bench_report_to_json(const BenchReport& report);
std::string render_json_report(const BenchReport& report);  // pretty-printed, ends with '\n'

// @pre document was written by bench_report_to_json (either schema) and not edited
//      into nonsense; otherwise throws std::runtime_error naming the member, e.g. "bench report
//      JSON: paths[2].timings[0].per_layer_us.samples: expected an array, got a string".
BenchReport bench_report_from_json(const Json& document);

}  // namespace layoutcheck
