#include "cases/gdn/bench/gdn_bench_options.h"

#include <algorithm>
#include <utility>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {

void apply_shape_overrides(GdnShape& shape,
                           const std::vector<std::pair<std::string, std::int64_t>>& overrides) {
  for (const auto& [name, value] : overrides) {
    std::int64_t* size = name == "H"    ? &shape.H
                         : name == "HV" ? &shape.HV
                         : name == "K"  ? &shape.K
                         : name == "V"  ? &shape.V
                         : name == "W"  ? &shape.W
                                        : nullptr;
    if (size == nullptr)
      throw_usage_error("--set " + name + ": the GDN bench has no size '" + name + "'",
                        "set H, HV, K, V or W");
    *size = value;
  }
}

GdnBenchOptions gdn_bench_options(const BenchRequest& request) {
  GdnBenchOptions options;
  apply_shape_overrides(options.shape, request.sizes);
  options.batches = request.batches;
  options.layers = request.layers;
  options.steps = request.steps;
  options.warmup_replays = request.warmup_replays;
  options.replays = request.replays;
  options.overlapped_launches = request.overlapped_launches;
  options.gpu_probe = request.gpu_probe;
  options.command = request.command;
  return options;
}

void validate_bench_options(GdnBenchOptions& options) {
  BenchRequest shared;
  shared.batches = options.batches;
  shared.layers = options.layers;
  shared.steps = options.steps;
  shared.replays = std::min(options.replays, options.hot_replays);
  shared.warmup_replays = options.warmup_replays;
  validate_bench_request(shared);
  options.batches = shared.batches;
  if (options.multi_step_batch < 1) throw_usage_error("the multi-step batch must be 1 or more", "");
  if (!options.shape.valid())
    throw_usage_error("the GDN shape is invalid (sizes positive, W >= 2, HV a multiple of H)",
                      "e.g. --set H=16 --set HV=48");
  // The kernels index a row with 32-bit offsets and a grid of at most 65535 rows; past those
  // bounds (and a layer count no graph holds) byte counts would overflow before any launch.
  const GdnShape& s = options.shape;
  const double row =
      static_cast<double>(s.HV) * static_cast<double>(s.K) * static_cast<double>(s.V) +
      2.0 * static_cast<double>(s.H) * static_cast<double>(s.K) +
      2.0 * static_cast<double>(s.HV) * static_cast<double>(s.V);
  if (row >= 2147483648.0)
    throw_usage_error(
        "the GDN sizes give a state row of more than 2^31 elements, beyond the "
        "kernels' 32-bit row offsets",
        "--set smaller sizes");
  if (options.batches.back() > kMaxBenchBatch)
    throw_usage_error("--batch " + std::to_string(options.batches.back()) + " is more than " +
                          std::to_string(kMaxBenchBatch) + " rows, the kernels' grid limit",
                      "e.g. --batch 1,8,64,256");
  if (options.layers > kMaxBenchLayers)
    throw_usage_error("--layers " + std::to_string(options.layers) + " is more than " +
                          std::to_string(kMaxBenchLayers),
                      "a model has tens of GDN layers; e.g. --layers 48");
}

}  // namespace layoutcheck
