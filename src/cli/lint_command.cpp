// layoutcheck lint FILE... : parse every contract and run the layout rules, printing each finding
// with file, line, column and a fix, then one summary line per file (or JSON, or Markdown for a
// pull-request comment). FILE "-" is a contract on standard input.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/check/lint_report.h"
#include "layoutcheck/render/lint_report.h"

namespace layoutcheck::cli {
namespace {

struct LintOptions {
  std::vector<std::string> files;
  std::vector<std::string> assignments;
  bool json = false;
  OutputFormat format = OutputFormat::text;
  std::int64_t max_elements = kDefaultElementCap;
};

// One contract argument (a file, or - for standard input) linted.
LintFileResult lint_one(const std::string& argument, const LoadOptions& options) {
  try {
    return lint_parsed(contract_argument_name(argument), parse_contract_argument(argument, options));
  } catch (const InputError& error) {
    return {contract_argument_name(argument), std::nullopt, error.diagnostics(), true};
  }
}

bool is_command_line(const Diagnostic& diagnostic) {
  return diagnostic.where.file == "<command line>";
}

int run_lint(const LintOptions& lint) {
  LoadOptions options = load_options_from(lint.assignments, lint.max_elements);
  options.ignore_unknown_overrides = lint.files.size() > 1;

  std::vector<LintFileResult> results;
  std::vector<LintedFile> reports;
  bool input_error = false, findings = false;
  for (const std::string& file : lint.files) {
    results.push_back(lint_one(file, options));
    const LintFileResult& result = results.back();
    reports.push_back(linted_file(result));
    for (const Diagnostic& d : result.diagnostics)
      input_error = input_error || (d.severity == Severity::error && is_command_line(d));
    input_error = input_error || result.unreadable;
    findings = findings || has_errors(result.diagnostics);
  }
  // With several files a --set only some of them declare is fine; one that none declares is not.
  const std::vector<Diagnostic> unused = options.ignore_unknown_overrides
                                             ? overrides_no_file_declares(results, options)
                                             : std::vector<Diagnostic>{};

  const OutputFormat format = lint.json ? OutputFormat::json : lint.format;
  if (format == OutputFormat::json)
    std::cout << lint_to_json(reports).dump() << "\n";
  else if (format == OutputFormat::markdown)
    std::cout << lint_to_markdown(reports);
  else
    std::cout << lint_to_text(reports);
  for (const Diagnostic& d : unused) std::cerr << d.str() << "\n";
  if (input_error || !unused.empty()) return kInputError;
  return findings ? kFindings : kClean;
}

}  // namespace

Command setup_lint_command(CLI::App& parent) {
  auto lint = std::make_shared<LintOptions>();
  CLI::App* app = parent.add_subcommand(
      "lint", "Check contracts: YAML and schema, symbols, bounds, overlaps, gaps, padding");
  app->add_option("files", lint->files, "Contract files (YAML); - reads one from standard input")
      ->required()
      ->type_name("FILE");
  add_set_option(app, lint->assignments);
  add_format_options(app, lint->format, lint->json);
  add_max_elements_option(app, lint->max_elements);
  app->footer(
      "Each finding prints as FILE:LINE:COL: error[RULE]: MESSAGE with a 'fix:' line, then one\n"
      "summary line per file. Exit status: 0 when every file is clean (warnings allowed);\n"
      "1 when a file has findings, including malformed YAML and format errors (finding them is\n"
      "lint's job); 2 when a file cannot be read or the command line is wrong (bad or unknown\n"
      "--set, a --set of a derived symbol such as G = HV / H).");
  return {app, [lint] { return run_lint(*lint); },
          [lint] { return lint->json || lint->format == OutputFormat::json; }};
}

}  // namespace layoutcheck::cli
