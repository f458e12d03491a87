#include "layoutcheck/cases/gate_report.h"

#include <algorithm>

namespace layoutcheck {

std::string_view outcome_name(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::passed: return "passed";
    case GateOutcome::failed: return "FAILED";
    case GateOutcome::not_run: return "not run";
  }
  return "?";
}

std::size_t GateReport::count(GateOutcome outcome) const {
  return static_cast<std::size_t>(std::count_if(
      checks.begin(), checks.end(), [&](const GateCheck& c) { return c.outcome == outcome; }));
}

std::string GateReport::verdict() const {
  if (count(GateOutcome::failed) > 0) return "FAILED";
  if (checks.empty() || count(GateOutcome::not_run) > 0) return "INCOMPLETE";
  return "clean";
}

int GateReport::exit_code() const {
  const std::string word = verdict();
  return word == "clean" ? 0 : word == "FAILED" ? 1 : 3;
}

std::vector<GateCheck> merge_gate_checks(std::vector<GateCheck> host,
                                         const std::vector<GateCheck>& device) {
  for (const GateCheck& check : device) {
    const auto same = std::find_if(host.begin(), host.end(), [&](const GateCheck& h) {
      return h.gate == check.gate && h.subject == check.subject;
    });
    if (same != host.end())
      *same = check;
    else
      host.push_back(check);
  }
  return host;
}

CaseGateRegistry& CaseGateRegistry::instance() {
  static CaseGateRegistry registry;
  return registry;
}

void CaseGateRegistry::add(CaseGates gates) {
  const std::lock_guard lock(mutex_);
  for (CaseGates& existing : gates_)
    if (existing.case_name == gates.case_name) {
      existing = std::move(gates);
      return;
    }
  gates_.push_back(std::move(gates));
}

void CaseGateRegistry::set_device(std::string_view case_name,
                                  std::function<std::vector<GateCheck>(const GateRequest&)> device) {
  const std::lock_guard lock(mutex_);
  for (CaseGates& existing : gates_)
    if (existing.case_name == case_name) existing.device = std::move(device);
}

const CaseGates* CaseGateRegistry::find(std::string_view case_name) const {
  const std::lock_guard lock(mutex_);
  for (const CaseGates& gates : gates_)
    if (gates.case_name == case_name) return &gates;
  return nullptr;
}

std::vector<std::string> CaseGateRegistry::names() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const CaseGates& gates : gates_) names.push_back(gates.case_name);
  return names;
}

}  // namespace layoutcheck
