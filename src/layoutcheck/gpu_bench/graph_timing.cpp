#include "layoutcheck/gpu_bench/graph_timing.h"

#include <stdexcept>

namespace layoutcheck::gpu {

std::vector<double> time_graph_replays(const Graph& graph, const Stream& stream, int warmup,
                                       int replays, double divisor) {
  if (replays <= 0 || !(divisor > 0)) throw std::invalid_argument("graph timing: nothing to time");
  for (int i = 0; i < warmup; ++i) graph.launch(stream);
  stream.synchronize();
  Event start, stop;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(replays));
  for (int i = 0; i < replays; ++i) {
    start.record(stream);
    graph.launch(stream);
    stop.record(stream);
    stop.synchronize();  // one replay at a time: no queueing of the next behind this one's events
    samples.push_back(static_cast<double>(stop.milliseconds_since(start)) * 1e3 / divisor);
  }
  return samples;
}

}  // namespace layoutcheck::gpu
