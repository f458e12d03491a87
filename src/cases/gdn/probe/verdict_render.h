// The probe verdict as a reviewer reads it (text) and as tools read it (JSON, the misread part in
// the same form as `layoutcheck diff --json`).
//
//   probe: cpu model of a kernel for qwen3_next.qkvz ... fed qwen3_5.qkvz (16384 offsets)
//   layout misread: 16128 of 16384 elements (as the static diff predicts none ...)
//     the kernel reads K[0,0:128] from offsets 128-255, which hold Q[1,0:128]
//   verdict: ...
#pragma once

#include <cstddef>
#include <string>

#include "cases/gdn/probe/verdict.h"
#include "layoutcheck/render/json.h"

namespace layoutcheck {

std::string verdict_to_text(const ProbeVerdict& verdict, std::size_t max_runs = 8);

// report_to_json(verdict.reads) plus "runner", "buffer", "probed", "agrees_with_diff",
// "static_misread", "never_read", "routing", "lanes", "row_stride", "unresolved_probes",
// "unresolved_details", "value_deviations", "read_from_several_offsets", "values", "sweep_batch",
// "clean", "conclusion".
Json verdict_to_json(const ProbeVerdict& verdict, std::size_t max_runs);

}  // namespace layoutcheck
