// The result model of an operator bench: fixed-shape operators (a LayerNorm of [1,131040,192], a
// window gather to 138240 slots), each run on several paths over identical inputs in one run on
// one device, every path gated before it is timed, every time beside its floor (the operator's
// minimum bytes ÷ the copy bandwidth measured in the same run) and, where recorded, beside the
// framework's figure on the same GPU. An INVALID path keeps its gates and is never timed or
// compared. The layer-graph bench (result.h) is the other model; report/ renders both, neither
// knows an operator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "layoutcheck/bench/result.h"

namespace layoutcheck {

struct OperatorGate {
  std::string name;  // "reference", "residual bitwise", "determinism"
  bool passed = false;
  std::string detail;  // "max 1 ulp of fp16 over 25159680 elements", "3 of 25159680 differ"
};

struct OperatorPath {
  std::string name;  // "generic", "native"
  std::string description;
  std::int64_t launches = 1;  // kernels per call
  std::vector<OperatorGate> gates;
  std::vector<double> us;       // one sample per timed replay: µs per call; empty when INVALID
  std::optional<Summary> time;  // of us
  // Device memory the path holds at its peak (a model's activations and maps), where measured.
  std::optional<std::int64_t> device_bytes;

  bool valid() const;  // every gate passed, and at least one ran
};

// A framework's figure for the same operator and shape, measured on the same GPU
// (scripts/pangu-framework-bench.py): what the native path must beat.
struct FrameworkFigure {
  std::string mode;  // "torch.compile + CUDA graph"
  double us = 0;     // median per call
};

// The path of that name among paths, or nullptr.
const OperatorPath* find_path(const std::vector<OperatorPath>& paths, const std::string& name);

struct OperatorMeasurement {
  std::string name;        // "layernorm"
  std::string shape;       // "[1,131040,192]"
  std::int64_t bytes = 0;  // the minimum: every input read once, every output written once
  std::vector<OperatorPath> paths;
  std::vector<FrameworkFigure> framework;
  // A device-to-device copy of `bytes` (half read, half written), timed as the paths are: what
  // moving this many bytes reaches, beside the floor taken from a copy of 1 GiB. Where measured.
  std::optional<Summary> same_size_copy;
  std::int64_t buffer_sets = 0;  // distinct input/output sets its calls rotate over

  const OperatorPath* path(const std::string& name) const;  // nullptr when absent
};

// A model built from the operators and timed whole, each path's model in one graph over the same
// inputs and weights (the end-to-end gate): the candidate must pass its gates, be faster than the
// baseline and hold no more device memory.
struct ModelMeasurement {
  std::string name;   // "Pangu-lite block stack, 2 blocks"
  std::string shape;  // "[1,131040,192]"
  std::string shared; // what both paths run alike: "GEMMs cuBLAS, attention, bias + GELU"
  std::int64_t weight_bytes = 0;  // held by both paths alike
  std::vector<OperatorPath> paths;

  const OperatorPath* path(const std::string& name) const;  // nullptr when absent
};

// A targets line the report checks each operator against.
struct OperatorTargets {
  double copy_bandwidth_fraction = 0.88;  // of the copy bandwidth, the candidate's median
  double over_baseline = 3.0;             // times faster than the baseline
  std::string framework_mode;             // must beat this framework figure; empty: none
  // A framework the case would be held to, but this run had no figures of it: that target is
  // reported as not checked, never as met.
  std::string framework_not_measured;
  std::string framework_measured_by;  // what measures its figures, for the "not checked" line
};

struct OperatorBenchReport {
  std::string case_name;  // "pangu"
  std::string command;
  std::string device;
  std::string backend;
  int warmup_replays = 0;
  int replays = 0;
  std::int64_t calls_per_graph = 0;  // operator calls captured in one graph, over rotating buffers
  std::int64_t rotation_bytes = 0;   // the buffer sets of an operator add up to at least this
  CopyBandwidth copy_bandwidth;
  std::optional<LaunchFloor> launch_floor;
  std::string baseline;   // "generic"
  std::string candidate;  // "native"
  OperatorTargets targets;
  std::vector<OperatorMeasurement> operators;
  std::vector<ModelMeasurement> models;
  std::vector<std::pair<std::string, std::string>> not_merged;  // prototype, why
};

double operator_floor_us(const OperatorBenchReport& report, const OperatorMeasurement& op);
// Median ratio baseline ÷ path; nullopt unless both are VALID and timed.
std::optional<double> operator_speedup(const OperatorMeasurement& op, const std::string& path,
                                       const std::string& baseline);
// Median ratio baseline ÷ path of a model; nullopt unless both are VALID and timed.
std::optional<double> model_speedup(const ModelMeasurement& model, const std::string& path,
                                    const std::string& baseline);
// Each INVALID path of an operator or a model and each model whose candidate fails the
// end-to-end gate (exit code 1), and each target the candidate misses ("misses" lines are
// reported, not findings: a target is a goal, a gate is a promise).
std::vector<std::string> operator_findings(const OperatorBenchReport& report);
std::vector<std::string> operator_target_misses(const OperatorBenchReport& report);
// The targets this run could not check (a framework without figures), each with how to check it.
std::vector<std::string> operator_targets_not_checked(const OperatorBenchReport& report);

// The framework figure the targets name, or nullptr; the fraction of the copy bandwidth a timed
// path reaches.
const FrameworkFigure* framework_figure(const OperatorBenchReport& report,
                                        const OperatorMeasurement& op);
double operator_bandwidth_fraction(const OperatorBenchReport& report, const OperatorMeasurement& op,
                                   const OperatorPath& path);
// The fraction of the copy bandwidth the same-size copy reaches; nullopt where not measured.
std::optional<double> same_size_copy_fraction(const OperatorBenchReport& report,
                                              const OperatorMeasurement& op);

}  // namespace layoutcheck
