#include "layoutcheck/gpu_bench/launch_floor.h"

#include <stdexcept>

#include "kernels/launch_floor_kernel.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu_bench/graph_timing.h"

namespace layoutcheck::gpu {

LaunchFloor measure_launch_floor(const Stream& stream, std::int64_t nodes, int warmup, int replays,
                                 kernels::LaunchOrder launch) {
  if (nodes <= 0 || replays <= 0) throw std::invalid_argument("launch floor: nothing to time");
  DeviceBuffer<unsigned> counter(1);
  counter.fill_bytes(0);
  const Graph graph(stream, [&](hipStream_t s) {
    for (std::int64_t i = 0; i < nodes; ++i)
      kernels::launch_counting_node(counter.data(), s, launch);
  });
  LaunchFloor floor;
  floor.nodes_per_graph = nodes;
  floor.node_us = time_graph_replays(graph, stream, warmup, replays, static_cast<double>(nodes));
  floor.node = summarize(floor.node_us);
  return floor;
}

}  // namespace layoutcheck::gpu
