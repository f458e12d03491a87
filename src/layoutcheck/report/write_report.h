// Writes the three renderings of one result model into a folder: report.md, report.json and
// chart.svg. The folder is created if missing.
#pragma once

#include <filesystem>
#include <vector>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

// @post the three files exist in `folder`; returns their paths. Throws std::runtime_error naming
//       the file on a write failure.
std::vector<std::filesystem::path> write_bench_report(const BenchReport& report,
                                                      const std::filesystem::path& folder);

}  // namespace layoutcheck
