// Diagnostics as JSON: the objects lint --json lists per file, and the document a command given
// --json prints on standard output when it stops on an input error, so a tool reading its output
// gets JSON on every path (the exit code still says 2).
#pragma once

#include <vector>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

// {"file", "line", "column", "severity", "rule", "message", "fix"}
Json diagnostic_to_json(const Diagnostic& diagnostic);

// {"errors": [diagnostic_to_json...]}
Json errors_to_json(const std::vector<Diagnostic>& diagnostics);

}  // namespace layoutcheck
