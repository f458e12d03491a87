#include "layoutcheck/report/gate_report_render.h"

#include <sstream>
#include <vector>

#include "layoutcheck/report/format.h"

namespace layoutcheck {
namespace {

std::vector<std::string> gate_names(const GateReport& report) {
  std::vector<std::string> names;
  for (const GateCheck& check : report.checks)
    if (std::find(names.begin(), names.end(), check.gate) == names.end())
      names.push_back(check.gate);
  return names;
}

}  // namespace

std::string render_gate_markdown(const GateReport& report) {
  std::ostringstream out;
  out << "# layoutcheck gate: " << report.case_name << "\n\n";
  out << "**" << report.verdict() << "**: " << report.count(GateOutcome::passed) << " passed, "
      << report.count(GateOutcome::failed) << " failed, " << report.count(GateOutcome::not_run)
      << " not run\n\n- device: " << report.device << "\n";
  if (!report.selection.empty())
    out << "- selection: " << report.selection
        << "; not the merge gate, which is every check, run without --only and --call\n";
  for (const std::string& gate : gate_names(report)) {
    out << "\n## " << gate << " gate\n\n| kind | subject | outcome | detail |\n|---|---|---|---|\n";
    for (const GateCheck& check : report.checks)
      if (check.gate == gate)
        out << "| " << check.kind << " | " << markdown_cell(check.subject) << " | "
            << (check.outcome == GateOutcome::failed ? "**FAILED**"
                                                      : std::string(outcome_name(check.outcome)))
            << " | " << markdown_cell(check.detail) << " |\n";
  }
  const std::size_t not_run = report.count(GateOutcome::not_run);
  if (not_run > 0)
    out << "\n**Not verified**: " << not_run
        << (not_run == 1 ? " check did not run" : " checks did not run")
        << " (listed as \"not run\" with the reason); nothing merges on them.\n";
  return out.str();
}

Json gate_report_json(const GateReport& report) {
  Json checks = Json::array();
  for (const GateCheck& check : report.checks)
    checks.push(Json::object()
                    .set("gate", check.gate)
                    .set("kind", check.kind)
                    .set("subject", check.subject)
                    .set("outcome", std::string(outcome_name(check.outcome)))
                    .set("detail", check.detail));
  return Json::object()
      .set("case", report.case_name)
      .set("device", report.device)
      .set("verdict", report.verdict())
      .set("selection", report.selection)
      .set("passed", static_cast<std::int64_t>(report.count(GateOutcome::passed)))
      .set("failed", static_cast<std::int64_t>(report.count(GateOutcome::failed)))
      .set("not_run", static_cast<std::int64_t>(report.count(GateOutcome::not_run)))
      .set("checks", std::move(checks));
}

}  // namespace layoutcheck
