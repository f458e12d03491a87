#include "layoutcheck/render/lint_report.h"

#include "layoutcheck/render/diagnostic_json.h"
#include "layoutcheck/render/markdown_text.h"

namespace layoutcheck {
namespace {

std::string count(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

bool failed(const LintedFile& file) {
  return has_errors(file.diagnostics) || !file.elements;
}

}  // namespace

std::string lint_summary(const LintedFile& file) {
  std::size_t errors = 0, warnings = 0;
  for (const Diagnostic& d : file.diagnostics) {
    errors += d.severity == Severity::error;
    warnings += d.severity == Severity::warning;
  }
  const std::string warned = warnings ? ", " + count(warnings, "warning") : "";
  if (errors > 0 || !file.elements)
    return file.file + ": FAILED (" + count(errors, "error") + warned + ")";
  return file.file + ": ok (" + std::to_string(*file.elements) + " elements/row, " +
         count(file.fields, "field") + warned + ")";
}

std::string lint_to_text(const std::vector<LintedFile>& files) {
  std::string text;
  for (const LintedFile& file : files) {
    for (const Diagnostic& d : file.diagnostics) {
      text += printable(d.where.str()) + ": " + severity_name(d.severity) + "[" + d.rule +
              "]: " + printable(d.message) + "\n";
      if (!d.fix.empty()) text += "    fix: " + printable(d.fix) + "\n";
    }
    text += lint_summary(file) + "\n";
  }
  return text;
}

LintedFile linted_file(const LintFileResult& result) {
  LintedFile file{result.file, result.diagnostics, std::nullopt, 0, result.unreadable};
  if (result.contract) {
    file.elements = result.contract->elements();
    file.fields = result.contract->fields.size();
  }
  return file;
}

Json lint_to_json(const std::vector<LintedFile>& files) {
  Json entries = Json::array();
  for (const LintedFile& file : files) {
    Json diagnostics = Json::array();
    for (const Diagnostic& d : file.diagnostics) diagnostics.push(diagnostic_to_json(d));
    entries.push(Json::object()
                     .set("file", file.file)
                     .set("ok", !has_errors(file.diagnostics) && file.elements.has_value())
                     .set("elements", file.elements ? Json(*file.elements) : Json())
                     .set("diagnostics", std::move(diagnostics)));
  }
  return Json::object().set("files", std::move(entries));
}

std::string lint_to_markdown(const std::vector<LintedFile>& files) {
  std::size_t failing = 0, errors = 0, warnings = 0;
  for (const LintedFile& file : files) {
    failing += failed(file);
    for (const Diagnostic& d : file.diagnostics) {
      errors += d.severity == Severity::error;
      warnings += d.severity == Severity::warning;
    }
  }
  const std::string contracts = count(files.size(), "contract");
  std::string text = "### layoutcheck lint: " + contracts + "\n\n";
  const std::string warned = warnings ? " (" + count(warnings, "warning") + ")" : "";
  if (failing == 0)
    text += "**OK: every contract passes lint**" + warned + ".\n\n";
  else
    text += "**FAILED: " + std::to_string(failing) + " of " + contracts + " with errors** (" +
            count(errors, "error") + (warnings ? ", " + count(warnings, "warning") : "") + ").\n\n";

  text += "| contract | result | elements/row | fields |\n|---|---|--:|--:|\n";
  for (const LintedFile& file : files) {
    std::size_t file_errors = 0;
    for (const Diagnostic& d : file.diagnostics) file_errors += d.severity == Severity::error;
    const std::string result =
        failed(file) ? "**FAILED** (" + count(file_errors, "error") + ")" : "ok";
    text += "| " + markdown_code(file.file) + " | " + result + " | " +
            (file.elements && !failed(file) ? std::to_string(*file.elements) : "") + " | " +
            (file.elements && !failed(file) ? std::to_string(file.fields) : "") + " |\n";
  }
  bool any = false;
  for (const LintedFile& file : files)
    for (const Diagnostic& d : file.diagnostics) {
      if (!any) text += "\n| where | finding | fix |\n|---|---|---|\n";
      any = true;
      text += "| " + markdown_code(d.where.str()) + " | " + severity_name(d.severity) + " " +
              markdown_code(d.rule) + ": " + markdown_text(d.message) + " | " +
              markdown_text(d.fix) + " |\n";
    }
  return text;
}

}  // namespace layoutcheck
