#include "layoutcheck/check/lint_report.h"

#include <set>
#include <utility>

#include "layoutcheck/check/lint.h"

namespace layoutcheck {

LintFileResult lint_file_result(const std::string& file, const LoadOptions& options) {
  LintFileResult result{file, std::nullopt, {}, false};
  try {
    ParseResult parsed = parse_contract_file(file, options);
    result.diagnostics = std::move(parsed.diagnostics);
    if (parsed.contract) {
      std::vector<Diagnostic> checks = check_contract(*parsed.contract);
      result.diagnostics.insert(result.diagnostics.end(), checks.begin(), checks.end());
      result.contract = std::move(parsed.contract);
    }
  } catch (const InputError& error) {
    result.diagnostics = error.diagnostics();
    result.unreadable = true;
  }
  return result;
}

std::vector<Diagnostic> overrides_no_file_declares(const std::vector<LintFileResult>& results,
                                                   const LoadOptions& options) {
  std::set<std::string, std::less<>> declared;
  for (const LintFileResult& result : results) {
    if (!result.contract) return {};
    for (const Symbol& symbol : result.contract->symbols) declared.insert(symbol.name);
  }
  std::vector<Diagnostic> unused;
  for (const auto& [name, value] : options.overrides)
    if (!declared.count(name) && !results.empty())
      unused.push_back({SourceLocation{"<command line>"}, Severity::error, "unknown-symbol",
                        "--set " + name + "=" + std::to_string(value) +
                            ": none of the linted contracts has a symbol '" + name + "'",
                        "check the symbol name"});
  return unused;
}

}  // namespace layoutcheck
