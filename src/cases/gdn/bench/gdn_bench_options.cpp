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

void validate_bench_options(GdnBenchOptions& options) {
  if (options.batches.empty())
    throw_usage_error("--batch lists no batch size", "e.g. --batch 1,8,64,256");
  for (std::int64_t batch : options.batches)
    if (batch < 1)
      throw_usage_error("--batch " + std::to_string(batch) + " is not a positive batch size",
                        "batch sizes are 1 or more");
  std::sort(options.batches.begin(), options.batches.end());
  const auto repeated = std::adjacent_find(options.batches.begin(), options.batches.end());
  if (repeated != options.batches.end())
    throw_usage_error("--batch lists " + std::to_string(*repeated) + " twice",
                      "list each batch once");
  if (options.layers < 1) throw_usage_error("--layers must be 1 or more", "e.g. --layers 48");
  // No multi-step gate makes every path INVALID, so a run without one is a mistake.
  if (options.steps < 1) throw_usage_error("--steps must be 1 or more", "e.g. --steps 1024");
  if (options.multi_step_batch < 1) throw_usage_error("the multi-step batch must be 1 or more", "");
  if (options.replays < 1 || options.hot_replays < 1)
    throw_usage_error("--replays must be 1 or more", "e.g. --replays 100");
  if (options.warmup_replays < 0)
    throw_usage_error("--warmup must be 0 or more", "e.g. --warmup 10");
  if (!options.shape.valid())
    throw_usage_error(
        "the GDN shape is invalid (sizes positive, W >= 2, HV a multiple of H)",
        "e.g. --set H=16 --set HV=48");  // The kernels index a row with 32-bit offsets and a grid
                                         // of at most 65535 rows; past those
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
