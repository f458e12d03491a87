// layoutcheck lint FILE... : parse every contract and run the layout rules, printing each finding
// with file, line, column and a fix, then one summary line per file.
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/check/lint_report.h"
#include "layoutcheck/render/lint_json.h"

namespace layoutcheck::cli {
namespace {

struct LintOptions {
  std::vector<std::string> files;
  std::vector<std::string> assignments;
  bool json = false;
  std::int64_t max_elements = kDefaultElementCap;
};

using FileResult = LintFileResult;

bool is_command_line(const Diagnostic& diagnostic) {
  return diagnostic.where.file == "<command line>";
}

std::string summary(const FileResult& result) {
  int errors = 0, warnings = 0;
  for (const Diagnostic& d : result.diagnostics)
    (d.severity == Severity::error ? errors : warnings) += d.severity != Severity::note;
  const auto count = [](int n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  if (errors > 0)
    return result.file + ": FAILED (" + count(errors, "error") +
           (warnings ? ", " + count(warnings, "warning") : "") + ")";
  const Contract& contract = *result.contract;
  return result.file + ": ok (" + std::to_string(contract.elements()) + " elements/row, " +
         count(static_cast<int>(contract.fields.size()), "field") +
         (warnings ? ", " + count(warnings, "warning") : "") + ")";
}

void print_text(const std::vector<FileResult>& results) {
  for (const FileResult& result : results) {
    for (const Diagnostic& d : result.diagnostics) {
      std::cout << printable(d.where.str()) << ": " << severity_name(d.severity) << "[" << d.rule
                << "]: " << printable(d.message) << "\n";
      if (!d.fix.empty()) std::cout << "    fix: " << printable(d.fix) << "\n";
    }
    std::cout << summary(result) << "\n";
  }
}

void print_json(const std::vector<FileResult>& results) {
  std::cout << lint_results_json(results).dump() << "\n";
}

int run_lint(const LintOptions& lint) {
  LoadOptions options = load_options_from(lint.assignments, lint.max_elements);
  options.ignore_unknown_overrides = lint.files.size() > 1;

  std::vector<FileResult> results;
  bool input_error = false, findings = false;
  for (const std::string& file : lint.files) {
    results.push_back(lint_file_result(file, options));
    const FileResult& result = results.back();
    for (const Diagnostic& d : result.diagnostics)
      input_error = input_error || (d.severity == Severity::error && is_command_line(d));
    input_error = input_error || result.unreadable;
    findings = findings || has_errors(result.diagnostics);
  }
  const std::vector<Diagnostic> unused = options.ignore_unknown_overrides
                                             ? overrides_no_file_declares(results, options)
                                             : std::vector<Diagnostic>{};

  if (lint.json)
    print_json(results);
  else
    print_text(results);
  for (const Diagnostic& d : unused) std::cerr << d.str() << "\n";
  if (input_error || !unused.empty()) return kInputError;
  return findings ? kFindings : kClean;
}

}  // namespace

Command setup_lint_command(CLI::App& parent) {
  auto lint = std::make_shared<LintOptions>();
  CLI::App* app = parent.add_subcommand(
      "lint", "Check contracts: YAML and schema, symbols, bounds, overlaps, gaps, padding");
  app->add_option("files", lint->files, "Contract files (YAML)")->required()->type_name("FILE");
  add_set_option(app, lint->assignments);
  app->add_flag("--json", lint->json, "Print the findings as JSON");
  add_max_elements_option(app, lint->max_elements);
  app->footer(
      "Each finding prints as FILE:LINE:COL: error[RULE]: MESSAGE with a 'fix:' line, then one\n"
      "summary line per file. Exit status: 0 when every file is clean (warnings allowed);\n"
      "1 when a file has findings, including malformed YAML and format errors (finding them is\n"
      "lint's job); 2 when a file cannot be read or the command line is wrong (bad or unknown\n"
      "--set, a --set of a derived symbol such as G = HV / H).");
  return {app, [lint] { return run_lint(*lint); }};
}

}  // namespace layoutcheck::cli
