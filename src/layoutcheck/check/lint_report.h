// What `lint` finds in each file, as one model for the CLI and the Python module: the parse
// problems, then the layout checks, per file, and the contract when it resolved (for the --set
// check). render/lint_report.h renders it (text, JSON, Markdown).
#pragma once

#include <optional>
#include <string>
#include <string_view>
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
// The layout checks of a contract already parsed (from a file, standard input or text), under
// the name it is reported by.
LintFileResult lint_parsed(std::string name, ParseResult parsed);

// With several files one --set may concern only some of them (LoadOptions::
// ignore_unknown_overrides); one that no file declares is an error ("unknown-symbol", on the
// command line). Empty when a file did not resolve: it might have declared it.
std::vector<Diagnostic> overrides_no_file_declares(const std::vector<LintFileResult>& results,
                                                   const LoadOptions& options);


}  // namespace layoutcheck
