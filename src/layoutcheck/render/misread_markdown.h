// The Markdown form of a MisreadReport, compact enough for a pull-request comment: a heading, the
// verdict line, the field table with both layouts side by side, the structural summary, the first
// runs folded into a <details> block, and the picture when one was written.
//
//   ### layoutcheck diff: `qwen3_5.ba` → `qwen3_next.ba`
//
//   **Misread: 90 of 96 elements (93.8 %).** A kernel built for `qwen3_next.ba` fed ...
//
//   | field | elements | misread | producer `qwen3_5.ba` | consumer `qwen3_next.ba` |
//   ...
#pragma once

#include <cstddef>
#include <string>

#include "layoutcheck/diff/read_map.h"
#include "layoutcheck/render/misread_text.h"

namespace layoutcheck {

struct MarkdownReportOptions {
  std::size_t max_runs = kDefaultTextRuns;  // runs listed in the folded block
  std::string picture;                      // link target of the rendered picture; "" for none
};

std::string report_to_markdown(const MisreadReport& report,
                               const MarkdownReportOptions& options = {});

}  // namespace layoutcheck
