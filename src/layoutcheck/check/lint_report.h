// What `lint` finds in each file, as one model the CLI prints as text and JSON
// (render/lint_json.h) and the Python module returns: the parse problems, then the layout
// checks, per file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {

struct LintFileResult {
  std::string file;
  std::optional<Contract> contract;  // present when the file could be resolved
  std::vector<Diagnostic> diagnostics;
  bool unreadable = false;  // the file could not be read: an input error, not a finding
};

// @post never throws for a problem of the file itself: it is in the diagnostics.
LintFileResult lint_file_result(const std::string& file, const LoadOptions& options);

// With several files one --set may concern only some of them (LoadOptions::
// ignore_unknown_overrides); one that no file declares is an error ("unknown-symbol", on the
// command line). Empty when a file did not resolve: it might have declared it.
std::vector<Diagnostic> overrides_no_file_declares(const std::vector<LintFileResult>& results,
                                                   const LoadOptions& options);

}  // namespace layoutcheck
