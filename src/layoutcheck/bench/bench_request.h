// What `layoutcheck bench` asks of a case's bench, and what a case declares of its bench, for any
// case: the knobs every bench has (batches, layers, steps, replays, launch order, sizes), the
// paths it times and which of them is the negative control. The case validates the sizes and
// bounds its kernels have (Case::validate_bench); its GPU half runs it (gpu/case_bench.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "layoutcheck/bench/gates.h"

namespace layoutcheck {

struct BenchRequest {
  std::vector<std::int64_t> batches = {1, 8, 64, 256};
  std::int64_t layers = 48;   // layers per graph, each with its own buffers
  std::int64_t steps = 1024;  // length of the multi-step gate
  int warmup_replays = 10;
  int replays = 100;
  // Launch every kernel of every path overlapped in the layer graphs (programmatic dependent
  // launch, NVIDIA sm_90+); serial is the default.
  bool overlapped_launches = false;
  bool gpu_probe = true;  // probe the negative control on the GPU, else take the static diff
  std::vector<std::pair<std::string, std::int64_t>> sizes;  // --set, the case's symbols
  std::string command;                                      // recorded in the report
  // Where a case's bench finds the shipped contracts it is built from (the CLI's folder).
  std::string contracts_folder;
  // Figures of the same operators measured by a framework on the same GPU (a JSON file a case's
  // bench reads, scripts/pangu-framework-bench.py's); empty: none.
  std::string framework_figures;
};

// @post throws InputError (rule "usage") naming the first bad value: no batch, a batch < 1, a
//       repeated batch, layers < 1, steps < 1, replays < 1, warm-up < 0. Sorts the batches.
void validate_bench_request(BenchRequest& request);

struct BenchPathSpec {
  std::string name;         // "native"
  std::string description;  // one line
  // Fed a layout it does not expect: it must come out INVALID (a VALID one is a finding).
  bool negative_control = false;
};

struct BenchDeclaration {
  std::string report_name;           // the case name its reports carry ("gdn-decode")
  std::vector<std::string> sizes;    // the sizes every report records ("H", "HV", ...)
  std::vector<BenchPathSpec> paths;  // in report order, the baseline first
  // The bounds its gates hold paths to: a recorded report re-rendered with --from may hold its
  // paths to stricter ones, never to looser ones, and may drop no required gate.
  GateThresholds thresholds;
};

}  // namespace layoutcheck
