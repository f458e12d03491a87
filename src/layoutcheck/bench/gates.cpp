#include "layoutcheck/bench/gates.h"

#include <cmath>
#include <cstdio>

namespace layoutcheck {

namespace {

// Written as "error <= bound" (not !(error > bound)) so that a NaN error fails.
bool within(double error, double bound) {
  return error <= bound;
}

std::string bitwise_reason(const std::string& where, const BitwiseCheck& check) {
  if (check.elements <= 0) return where + ": " + check.what + " was not compared";
  return where + ": " + check.what + " not bitwise equal (" + std::to_string(check.mismatches) +
         " of " + std::to_string(check.elements) + " elements differ)";
}

void check_errors(const std::string& where, double output, double state, double output_bound,
                  double state_bound, std::vector<std::string>& reasons) {
  if (!within(output, output_bound))
    reasons.push_back(where + ": output rel L2 " + format_error(output) + " > " +
                      format_error(output_bound));
  if (!within(state, state_bound))
    reasons.push_back(where + ": state rel L2 " + format_error(state) + " > " +
                      format_error(state_bound));
}

void check_multi_step(const MultiStepGate& gate, const GateThresholds& thresholds,
                      std::vector<std::string>& reasons) {
  const std::string name = std::to_string(gate.steps) + "-step gate";
  if (gate.checkpoints.empty()) reasons.push_back(name + ": no checkpoint recorded");
  for (const StepCheckpoint& checkpoint : gate.checkpoints)
    check_errors(name + ", step " + std::to_string(checkpoint.step), checkpoint.output_rel_l2,
                 checkpoint.state_rel_l2, thresholds.multi_step_output_rel_l2,
                 thresholds.multi_step_state_rel_l2, reasons);
  for (const BitwiseCheck& check : gate.bitwise)
    if (!check.equal()) reasons.push_back(bitwise_reason(name, check));
}

}  // namespace

std::string format_error(double value) {
  if (std::isnan(value)) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", value);
  return text;
}

Validity evaluate_gates(const GateRecord& gates, const GateThresholds& thresholds) {
  Validity validity;
  std::vector<std::string>& reasons = validity.reasons;
  reasons = gates.failures;

  if (gates.probe && gates.probe->misread != 0)
    reasons.push_back(gates.probe->source + ": " + std::to_string(gates.probe->misread) + " of " +
                      std::to_string(gates.probe->elements) + " elements misread");

  if (gates.reference.empty()) reasons.push_back("not checked against the fp64 reference");
  for (const ReferenceCheck& check : gates.reference) {
    const std::string where = "reference check, batch " + std::to_string(check.batch);
    check_errors(where, check.output_rel_l2, check.state_rel_l2, thresholds.output_rel_l2,
                 thresholds.state_rel_l2, reasons);
    if (!check.conv_state.equal()) reasons.push_back(bitwise_reason(where, check.conv_state));
  }

  if (gates.multi_step)
    check_multi_step(*gates.multi_step, thresholds, reasons);
  else if (thresholds.require_multi_step)
    reasons.push_back("multi-step gate did not run");

  if (gates.determinism) {
    if (!gates.determinism->outputs.equal())
      reasons.push_back(
          bitwise_reason("determinism across " + std::to_string(gates.determinism->runs) + " runs",
                         gates.determinism->outputs));
  } else if (thresholds.require_determinism) {
    reasons.push_back("determinism gate did not run");
  }

  if (gates.overlapped_launches) {
    if (!gates.overlapped_launches->equal())
      reasons.push_back(bitwise_reason("overlapped launches", *gates.overlapped_launches));
  } else if (thresholds.require_overlapped_launches) {
    reasons.push_back("overlapped-launch gate did not run");
  }

  validity.valid = reasons.empty();
  return validity;
}

}  // namespace layoutcheck
