// Short texts about a path that several renderers print the same way.
#pragma once

#include <optional>
#include <string>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

// The worst (largest, NaN first) reference-check output error, with its batch.
struct WorstError {
  double value = 0;
  std::int64_t batch = 0;
};
std::optional<WorstError> worst_output_error(const GateRecord& gates);
std::optional<WorstError> worst_state_error(const GateRecord& gates);

// Why a path is INVALID in one line: its misread count (where probes ran), its worst output error
// against the reference, and how many gates failed. Example:
// "16128 of 16480 elements misread (GPU probe); output rel L2 1.41e+00 (batch 64); 5 gate failures"
std::string invalid_summary(const PathResult& path);

}  // namespace layoutcheck
