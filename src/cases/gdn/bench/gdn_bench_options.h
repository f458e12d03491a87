// What `layoutcheck bench --case gdn-decode` measures, validated before anything runs: the bench
// checks its arguments on any machine, GPU or not, and says exactly what is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cases/gdn/shape.h"
#include "layoutcheck/bench/bench_request.h"

namespace layoutcheck {

struct GdnBenchOptions {
  GdnShape shape;
  std::vector<std::int64_t> batches = {1, 8, 64, 256};
  std::int64_t layers = 48;   // layers per graph, each with its own state and conv buffers
  std::int64_t steps = 1024;  // length of the multi-step gate
  std::int64_t multi_step_batch = 1;
  int warmup_replays = 10;
  int replays = 100;
  int hot_replays = 100;
  // Launch every kernel of every path overlapped in the layer graphs (programmatic dependent
  // launch, kernels/launch_order.h): the second method, for NVIDIA sm_90+; serial is the default.
  bool overlapped_launches = false;
  std::int64_t copy_bytes = std::int64_t{1} << 30;  // size of the buffer the copy bandwidth uses
  // Probe the negative control on the GPU (one-hot sweep of qkvz and ba) for its misread count;
  // otherwise the static diff gives it.
  bool gpu_probe = true;
  std::string command;  // the command line, recorded in the report
};

// Bounds of a bench run: the kernels' grid holds at most 65535 batch rows, and a graph of more
// layers than this is not a model.
inline constexpr std::int64_t kMaxBenchBatch = 65535;
inline constexpr std::int64_t kMaxBenchLayers = 4096;

// The GDN decode bench's options for a request: the shared knobs, and --set on the shape.
// @post throws InputError (rule "usage") for a size that is not H, HV, K, V or W.
GdnBenchOptions gdn_bench_options(const BenchRequest& request);

// @post throws InputError (rule "usage", location "<command line>") naming the first bad value:
//       what validate_bench_request refuses, an invalid shape; sizes past the kernels' bounds (a
//       state row of 2^31 elements, a batch over kMaxBenchBatch, layers over kMaxBenchLayers).
//       Sorts the batches ascending.
void validate_bench_options(GdnBenchOptions& options);

// Applies --set NAME=VALUE to the shape: H, HV, K, V or W; anything else is an InputError (rule
// "usage") naming the symbol.
void apply_shape_overrides(GdnShape& shape,
                           const std::vector<std::pair<std::string, std::int64_t>>& overrides);

// The paths the GDN decode bench compares, in report order.
inline constexpr const char* kGdnBaseline = "baseline";
inline constexpr const char* kGdnAdapterUpstream = "adapter+upstream";
inline constexpr const char* kGdnNative = "native";
inline constexpr const char* kGdnUpstreamDirect = "upstream-direct";

}  // namespace layoutcheck
