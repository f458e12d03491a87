// The JSON form of lint's report (check/lint_report.h): what `lint --json` prints and
// layoutcheck.lint returns.
#pragma once

#include <vector>

#include "layoutcheck/check/lint_report.h"
#include "layoutcheck/render/json.h"

namespace layoutcheck {

// {"files": [{file, ok, elements (null when unresolved), diagnostics: [{file, line, column,
//  severity, rule, message, fix}]}]}
Json lint_results_json(const std::vector<LintFileResult>& results);

}  // namespace layoutcheck
