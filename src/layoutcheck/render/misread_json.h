// The JSON form of a MisreadReport (diff, and the runs part of probe output).
#pragma once

#include <cstddef>
#include <limits>

#include "layoutcheck/diff/read_map.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

inline constexpr std::size_t kAllRuns = std::numeric_limits<std::size_t>::max();

// {"producer": FILE, "consumer": FILE, "producer_contract": NAME, "consumer_contract": NAME,
//  "elements", "misread", "unresolved", "fields": [{name, elements, misread, unresolved}],
//  "structure" (the static diff's only): {"buffer": SENTENCE, "fields": [{name,
//     producer: {layout, offset}, consumer: {layout, offset}, change: layout_change_name,
//     changes: [...], classification}]},
//  "runs_total", "runs": [{offset_begin, offset_end (exclusive), producer, consumer}],
//  "unresolved_elements": [...], "row_mismatches": [...], "notes": [...]}
// Keeps the first max_runs runs; callers may add keys (probe adds "probed", "agrees_with_diff").
Json report_to_json(const MisreadReport& report, std::size_t max_runs = kAllRuns);

Json structure_to_json(const StructuralSummary& structure);

}  // namespace layoutcheck
