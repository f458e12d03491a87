#include "layoutcheck/render/diagnostic_json.h"

namespace layoutcheck {

Json diagnostic_to_json(const Diagnostic& diagnostic) {
  return Json::object()
      .set("file", diagnostic.where.file)
      .set("line", diagnostic.where.line)
      .set("column", diagnostic.where.column)
      .set("severity", severity_name(diagnostic.severity))
      .set("rule", diagnostic.rule)
      .set("message", diagnostic.message)
      .set("fix", diagnostic.fix);
}

Json errors_to_json(const std::vector<Diagnostic>& diagnostics) {
  Json errors = Json::array();
  for (const Diagnostic& diagnostic : diagnostics) errors.push(diagnostic_to_json(diagnostic));
  return Json::object().set("errors", std::move(errors));
}

}  // namespace layoutcheck
