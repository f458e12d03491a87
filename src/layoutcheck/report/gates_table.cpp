#include "layoutcheck/report/gates_table.h"

#include <sstream>

#include "layoutcheck/report/path_summary.h"

namespace layoutcheck {

namespace {

std::string bitwise_cell(const BitwiseCheck& check) {
  if (check.equal()) return "equal";
  if (check.elements <= 0) return "not compared";
  return std::to_string(check.mismatches) + "/" + std::to_string(check.elements) + " differ";
}

std::string reference_cell(const GateRecord& gates) {
  const auto output = worst_output_error(gates);
  const auto state = worst_state_error(gates);
  if (!output || !state) return "not run";
  return format_error(output->value) + " / " + format_error(state->value);
}

std::string conv_state_cell(const GateRecord& gates) {
  if (gates.reference.empty()) return "not run";
  for (const ReferenceCheck& check : gates.reference)
    if (!check.conv_state.equal())
      return bitwise_cell(check.conv_state) + " (batch " + std::to_string(check.batch) + ")";
  return "equal";
}

std::string checkpoints_cell(const GateRecord& gates) {
  if (!gates.multi_step) return "not run";
  std::string text;
  for (const StepCheckpoint& checkpoint : gates.multi_step->checkpoints)
    text += (text.empty() ? "" : "; ") + std::to_string(checkpoint.step) + ": " +
            format_error(checkpoint.output_rel_l2) + " / " + format_error(checkpoint.state_rel_l2);
  return text.empty() ? "no checkpoint" : text;
}

std::string multi_step_bitwise_cell(const GateRecord& gates) {
  if (!gates.multi_step) return "not run";
  std::string text;
  for (const BitwiseCheck& check : gates.multi_step->bitwise)
    text += (text.empty() ? "" : "; ") + check.what + " " + bitwise_cell(check);
  return text.empty() ? "—" : text;
}

std::string determinism_cell(const GateRecord& gates) {
  if (!gates.determinism) return "not run";
  return gates.determinism->outputs.equal() ? "bitwise identical"
                                            : bitwise_cell(gates.determinism->outputs);
}

std::string overlapped_cell(const GateRecord& gates) {
  if (!gates.overlapped_launches) return "not run";
  return gates.overlapped_launches->equal() ? "bitwise identical to serial"
                                            : bitwise_cell(*gates.overlapped_launches);
}

std::string probe_cell(const GateRecord& gates) {
  if (!gates.probe) return "not probed";
  return std::to_string(gates.probe->misread) + " of " + std::to_string(gates.probe->elements) +
         " (" + gates.probe->source + ")";
}

std::string batches_text(const BenchReport& report) {
  std::string text;
  for (std::int64_t batch : report.batches)
    text += (text.empty() ? "" : ", ") + std::to_string(batch);
  return text;
}

}  // namespace

std::string render_gates_section(const BenchReport& report) {
  const GateThresholds& bound = report.thresholds;
  std::int64_t steps = 0, multi_step_batch = 0;
  for (const PathResult& path : report.paths)
    if (path.gates.multi_step)
      steps = path.gates.multi_step->steps, multi_step_batch = path.gates.multi_step->batch;

  std::ostringstream out;
  out << "## Gates (run before timing; a failed gate makes the path INVALID)\n\n";
  out << "- reference check: one step on fresh random inputs against the fp64 reference at batch "
      << batches_text(report) << "; output rel L2 ≤ " << format_error(bound.output_rel_l2)
      << ", state rel L2 ≤ " << format_error(bound.state_rel_l2)
      << ", conv state bitwise equal (the worst error over the batches shown; for the conv state, "
         "the first batch that differs)\n";
  out << "- multi-step: " << steps << " consecutive steps at batch " << multi_step_batch
      << "; output rel L2 ≤ " << format_error(bound.multi_step_output_rel_l2) << ", state rel L2 ≤ "
      << format_error(bound.multi_step_state_rel_l2)
      << " at each checkpoint; the conv state (pure data movement) bitwise equal\n";
  out << "- determinism: the same inputs run twice, every output bitwise identical\n";
  // The column exists only where the graphs launch overlapped: serial reports read as before.
  const bool overlapped = report.method.overlapped_launches;
  static_assert(kOverlappedGateReplays == 2, "the text below says twice");
  if (overlapped)
    out << "- overlapped launches: a graph of " << kOverlappedGateLayers
        << " layers, each with its own random inputs, replayed "
           "twice with every kernel launched overlapped, at the smallest batch of each split the "
           "fused kernel takes; every output, state and conv state bitwise identical to the same "
           "graph launched serially\n";
  out << "\n| path | verdict | reference output / state rel L2 | conv state | " << steps
      << "-step output / state rel L2 at step | bitwise after " << steps << " steps | determinism"
      << (overlapped ? " | overlapped launches" : "") << " | misread |\n";
  out << "|---|---|---|---|---|---|---|" << (overlapped ? "---|" : "") << "---|\n";
  for (const PathResult& path : report.paths) {
    const GateRecord& gates = path.gates;
    out << "| " << path.name << " | " << (path.validity.valid ? "VALID" : "**INVALID**") << " | "
        << reference_cell(gates) << " | " << conv_state_cell(gates) << " | "
        << checkpoints_cell(gates) << " | " << multi_step_bitwise_cell(gates) << " | "
        << determinism_cell(gates) << " | " << (overlapped ? overlapped_cell(gates) + " | " : "")
        << probe_cell(gates) << " |\n";
  }
  out << "\n";
  return out.str();
}

}  // namespace layoutcheck
