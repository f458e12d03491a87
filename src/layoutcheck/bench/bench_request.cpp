#include "layoutcheck/bench/bench_request.h"

#include <algorithm>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {

void validate_bench_request(BenchRequest& request) {
  if (request.batches.empty())
    throw_usage_error("--batch lists no batch size", "e.g. --batch 1,8,64,256");
  for (std::int64_t batch : request.batches)
    if (batch < 1)
      throw_usage_error("--batch " + std::to_string(batch) + " is not a positive batch size",
                        "batch sizes are 1 or more");
  std::sort(request.batches.begin(), request.batches.end());
  const auto repeated = std::adjacent_find(request.batches.begin(), request.batches.end());
  if (repeated != request.batches.end())
    throw_usage_error("--batch lists " + std::to_string(*repeated) + " twice",
                      "list each batch once");
  if (request.layers < 1) throw_usage_error("--layers must be 1 or more", "e.g. --layers 48");
  // No multi-step gate makes every path INVALID, so a run without one is a mistake.
  if (request.steps < 1) throw_usage_error("--steps must be 1 or more", "e.g. --steps 1024");
  if (request.replays < 1) throw_usage_error("--replays must be 1 or more", "e.g. --replays 100");
  if (request.warmup_replays < 0)
    throw_usage_error("--warmup must be 0 or more", "e.g. --warmup 10");
}

}  // namespace layoutcheck
