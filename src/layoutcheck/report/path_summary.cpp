#include "layoutcheck/report/path_summary.h"

#include <cmath>

namespace layoutcheck {

namespace {

// NaN counts as worse than any number: it is the error nobody may miss.
bool worse(double candidate, double current) {
  if (std::isnan(current)) return false;
  return std::isnan(candidate) || candidate > current;
}

template <class Member>
std::optional<WorstError> worst_error(const GateRecord& gates, Member member) {
  std::optional<WorstError> worst;
  for (const ReferenceCheck& check : gates.reference)
    if (!worst || worse(check.*member, worst->value))
      worst = WorstError{check.*member, check.batch};
  return worst;
}

}  // namespace

std::optional<WorstError> worst_output_error(const GateRecord& gates) {
  return worst_error(gates, &ReferenceCheck::output_rel_l2);
}

std::optional<WorstError> worst_state_error(const GateRecord& gates) {
  return worst_error(gates, &ReferenceCheck::state_rel_l2);
}

std::string invalid_summary(const PathResult& path) {
  std::string text;
  auto add = [&text](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
  if (path.gates.probe)
    add(std::to_string(path.gates.probe->misread) + " of " +
        std::to_string(path.gates.probe->elements) + " elements misread (" +
        path.gates.probe->source + ")");
  if (const auto worst = worst_output_error(path.gates))
    add("output rel L2 " + format_error(worst->value) + " (batch " + std::to_string(worst->batch) +
        ")");
  const std::size_t failures = path.validity.reasons.size();
  add(std::to_string(failures) + (failures == 1 ? " gate failure" : " gate failures"));
  return text;
}

}  // namespace layoutcheck
