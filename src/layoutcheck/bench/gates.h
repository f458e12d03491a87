// The gates a path passes before it is timed (design §8): a reference check against the fp64
// reference at every benched batch, a multi-step gate (consecutive decode steps, errors at
// checkpoints, bitwise checks where the maths is pure data movement), determinism across repeated
// runs, where probes ran the read map, and where the graphs launch overlapped the same outputs as
// serial launches. The harness records the numbers; judging them is a
// pure function here, so the verdict can be tested without a GPU and recomputed from a report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layoutcheck {

struct GateThresholds {
  double output_rel_l2 = 1e-2;  // bf16 output against the fp64 reference
  double state_rel_l2 = 1e-5;   // fp32 state against the fp64 reference, one step
  // The same bounds after many steps: the decay forgets old rounding, so an fp32 CPU model of a
  // correct kernel stays near 1e-7 in state after 1024 steps; a layout error gives errors of order
  // one. Kept separate so a port with a known, reviewed drift can say so.
  double multi_step_output_rel_l2 = 1e-2;
  double multi_step_state_rel_l2 = 1e-5;
  bool require_multi_step = true;
  bool require_determinism = true;
  bool require_overlapped_launches = false;  // set when the graphs launch overlapped
};

// Elements compared bit for bit (a conv state, a Z pass-through, an adapter's output).
struct BitwiseCheck {
  std::string what;  // "conv state", "Z pass-through"
  std::int64_t elements = 0;
  std::int64_t mismatches = 0;
  bool equal() const { return elements > 0 && mismatches == 0; }
};

// One step at one batch against the fp64 reference, on fresh random inputs.
struct ReferenceCheck {
  std::int64_t batch = 0;
  double output_rel_l2 = 0;
  double state_rel_l2 = 0;
  BitwiseCheck conv_state;
};

struct StepCheckpoint {
  std::int64_t step = 0;  // 1-based: errors after this many consecutive steps
  double output_rel_l2 = 0;
  double state_rel_l2 = 0;
};

struct MultiStepGate {
  std::int64_t batch = 0;
  std::int64_t steps = 0;
  std::vector<StepCheckpoint> checkpoints;  // e.g. steps 1, 256, 1024
  std::vector<BitwiseCheck> bitwise;        // e.g. the conv state, compared at every checkpoint
};

struct DeterminismGate {
  int runs = 2;
  BitwiseCheck outputs;  // everything the runs produced, compared across runs
};

// What the probes recovered about the path's reads, compared with the producer's contracts.
struct ProbeGate {
  std::string source;  // "GPU probe" or "static diff"
  std::int64_t elements = 0;
  std::int64_t misread = 0;
};

// The overlapped-launch gate's graph (gpu_bench/overlapped_launch_gate.h): this many layers, each
// with its own random inputs, replayed this many times in each launch order; the bench runs it and
// the report's method text describes it from these.
inline constexpr int kOverlappedGateLayers = 4;
inline constexpr int kOverlappedGateReplays = 2;

struct GateRecord {
  std::vector<ReferenceCheck> reference;
  std::optional<MultiStepGate> multi_step;
  std::optional<DeterminismGate> determinism;
  std::optional<ProbeGate> probe;
  // With overlapped launches: every output of a graph of several layers launched overlapped,
  // compared with the same graph launched serially.
  std::optional<BitwiseCheck> overlapped_launches;
  std::vector<std::string> failures;  // a launch or compile error that stopped a gate
};

struct Validity {
  bool valid = false;
  std::vector<std::string> reasons;  // why INVALID, one short line each; empty when VALID
};

// @post valid == reasons.empty(). A path with no reference check is INVALID: a path is never
//       compared before it is checked. NaN errors fail every threshold.
// Example reason: "reference check, batch 64: output rel L2 1.41e+00 > 1.0e-02".
Validity evaluate_gates(const GateRecord& gates, const GateThresholds& thresholds);

// Formats an error for gate messages and tables: "4.10e-04", "nan".
std::string format_error(double value);

}  // namespace layoutcheck
