// Timing a captured graph: warm-up replays, then each replay between two device events.
#pragma once

#include <vector>

#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// @pre replays > 0, divisor > 0. Returns one sample per timed replay: its time in µs divided by
// divisor (the launches the graph holds, for a per-layer figure).
std::vector<double> time_graph_replays(const Graph& graph, const Stream& stream, int warmup,
                                       int replays, double divisor);

}  // namespace layoutcheck::gpu
