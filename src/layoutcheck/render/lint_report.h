// What lint found in each file, and its three renderings: text for a terminal, JSON for tools,
// Markdown for a pull-request comment.
//
//   text:      contracts/gdn/qwen3_5.ba.yaml: ok (96 elements/row, 2 fields)
//              bad.yaml:9:7: error[overlap]: ... / "    fix: ..." / bad.yaml: FAILED (1 error)
//   JSON:      {"files": [{"file", "ok", "elements", "diagnostics": [diagnostic_to_json...]}]}
//   Markdown:  a heading, the verdict line, one table row per file, then a table of findings
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutcheck/check/lint_report.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

struct LintedFile {
  std::string file;
  std::vector<Diagnostic> diagnostics;   // parse problems, then layout checks, in file order
  std::optional<std::int64_t> elements;  // logical elements per row, when the contract resolved
  std::size_t fields = 0;
  bool unreadable = false;  // io error: an input error, not a finding
};

// What a report shows of lint's result for one file (check/lint_report.h).
LintedFile linted_file(const LintFileResult& result);

// "FILE: ok (96 elements/row, 2 fields)", "FILE: FAILED (2 errors, 1 warning)"
std::string lint_summary(const LintedFile& file);

std::string lint_to_text(const std::vector<LintedFile>& files);
Json lint_to_json(const std::vector<LintedFile>& files);
std::string lint_to_markdown(const std::vector<LintedFile>& files);

}  // namespace layoutcheck
