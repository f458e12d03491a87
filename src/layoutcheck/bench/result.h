// The result model of one bench run: what every renderer (Markdown, JSON, SVG) reads, and the
// only thing they read. One run = one device, one copy-bandwidth measurement, several paths over
// identical inputs, each with its declared stages, its gate record and verdict, and its timings
// per batch. An INVALID path keeps its gates and reasons but has no timings: it is never compared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "layoutcheck/bench/gates.h"
#include "layoutcheck/bench/statistics.h"
#include "layoutcheck/bench/traffic.h"

namespace layoutcheck {

// Device-to-device copy of a large buffer, timed in the same run as the paths.
struct CopyBandwidth {
  std::int64_t bytes_per_copy = 0;  // bytes read + bytes written by one copy
  std::vector<double> copy_us;      // one sample per timed copy
  Summary copy;                     // of copy_us
  double bytes_per_second() const;  // bytes_per_copy over the median copy time
};

// A graph holding one one-thread kernel per node, timed in the same run: what a kernel launch
// costs inside a graph on this device, below which no launch goes whatever it moves.
struct LaunchFloor {
  std::int64_t nodes_per_graph = 0;
  std::vector<double> node_us;  // one sample per timed replay: its time ÷ nodes_per_graph
  Summary node;                 // of node_us
};

struct TimingMethod {
  int warmup_replays = 0;
  int replays = 0;      // timed graph replays per path and batch
  int hot_replays = 0;  // timed replays of the hot graph (see BatchTiming::hot_us)
  // Every kernel of every path launched overlapped in the layer graphs and the launch floor: it
  // may start while the previous one finishes (kernels/launch_order.h). The hot graph launches
  // serially either way: its launches share one layer's state.
  bool overlapped_launches = false;
  // Device-to-device copies and kernel launches made outside any graph before anything was timed,
  // so that everything is timed in the state an application's process is in
  // (gpu_bench/launch_state.h). 0 launches: the report was timed in a fresh process; 0 copies:
  // the process settled by launches alone (its copy-bandwidth measurement came after them).
  int settling_copies = 0;
  int settling_launches = 0;
};

struct BatchTiming {
  std::int64_t batch = 0;
  // One sample per graph replay: the replay's time divided by the layers it holds.
  std::vector<double> per_layer_us;
  Summary per_layer;
  // Hot: a graph of `layers` launches all over layer 0's buffers, timed per launch, so the buffers
  // stay cache-resident where they fit in L2. Not production-like; shown labelled, never used for
  // speed-ups.
  std::vector<double> hot_us;
  Summary hot;
};

struct PathResult {
  std::string name;         // "baseline", "adapter+upstream", "native", "upstream-direct"
  std::string description;  // one line
  std::vector<StageTraffic> stages;
  GateRecord gates;
  Validity validity;
  std::vector<BatchTiming> timings;  // one per benched batch; empty when INVALID
  // A negative control is fed a layout it does not expect (upstream-direct): it must come out
  // INVALID, and shows what the gates and probes catch. A VALID control means they missed it.
  bool negative_control = false;

  const BatchTiming* timing_at(std::int64_t batch) const;  // nullptr when not timed
};

struct BenchReport {
  std::string case_name;  // "gdn-decode"
  std::string command;    // the command line that produced it
  std::string device;     // "NVIDIA H200 (sm_90)", or "synthetic" in tests
  std::string backend;    // "cuda", "hip"
  std::vector<std::pair<std::string, std::int64_t>> sizes;  // {"H", 16}, {"HV", 48}, ...
  std::string state_dtype = "fp32";
  std::int64_t layers = 0;
  std::vector<std::int64_t> batches;
  TimingMethod method;
  CopyBandwidth copy_bandwidth;
  std::optional<LaunchFloor> launch_floor;  // absent where the report did not measure it
  // The fewest bytes any correct implementation moves per layer (each input read once, each
  // output written once): divided by the copy bandwidth, the floor line of the chart.
  ByteCount minimum_traffic;
  GateThresholds thresholds;
  std::string baseline;  // the path every speed-up column is relative to
  // Further pairs {candidate, reference} whose ratio the report lists, e.g. native vs
  // adapter+upstream. Printed only where both are VALID.
  std::vector<std::pair<std::string, std::string>> comparisons;
  std::vector<PathResult> paths;

  const PathResult* path(const std::string& name) const;  // nullptr when absent
};

// Minimum-traffic floor at `batch`, in µs per layer, at the measured copy bandwidth.
double minimum_floor_us(const BenchReport& report, std::int64_t batch);

// How many times faster `candidate` is than `reference` at `batch`: the ratio of their median
// per-layer times from the same run. nullopt unless both paths exist, are VALID and were timed at
// that batch: no ratio is ever produced for an INVALID path.
std::optional<double> speedup(const BenchReport& report, const std::string& candidate,
                              const std::string& reference, std::int64_t batch);

// The {candidate, reference} pairs a report gives speed-ups for, in order: every path against the
// baseline, then the listed comparisons, each pair once. Never a negative control, never an
// INVALID path, never a path against itself; both paths exist. Every renderer takes its pairs here.
std::vector<std::pair<std::string, std::string>> speedup_pairs(const BenchReport& report);

// Findings of a bench run (exit code 1): each path that is INVALID though it is not a negative
// control, and each negative control that came out VALID. Empty when the run is clean.
std::vector<std::string> findings(const BenchReport& report);

}  // namespace layoutcheck
