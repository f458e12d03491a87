#include "layoutcheck/render/lint_json.h"

#include <utility>

namespace layoutcheck {

Json lint_results_json(const std::vector<LintFileResult>& results) {
  Json files = Json::array();
  for (const LintFileResult& result : results) {
    Json diagnostics = Json::array();
    for (const Diagnostic& d : result.diagnostics)
      diagnostics.push(Json::object()
                           .set("file", d.where.file)
                           .set("line", d.where.line)
                           .set("column", d.where.column)
                           .set("severity", severity_name(d.severity))
                           .set("rule", d.rule)
                           .set("message", d.message)
                           .set("fix", d.fix));
    Json entry = Json::object();
    entry.set("file", result.file)
        .set("ok", !has_errors(result.diagnostics))
        .set("elements", result.contract ? Json(result.contract->elements()) : Json())
        .set("diagnostics", std::move(diagnostics));
    files.push(std::move(entry));
  }
  return Json::object().set("files", std::move(files));
}

}  // namespace layoutcheck
