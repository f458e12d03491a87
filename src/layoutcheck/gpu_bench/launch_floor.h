// The launch floor every per-layer figure stands on: a graph of one-thread kernels, timed the way
// the paths are (graph_timing.h), gives what one kernel launch costs inside a graph on this device.
#pragma once

#include "kernels/launch_order.h"
#include "layoutcheck/bench/result.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// @pre nodes > 0, replays > 0. One graph of `nodes` dependent one-thread kernels, launched in the
//      given order, `warmup` replays untimed, `replays` timed; each sample is a replay's time ÷
//      nodes. Throws GpuError on a failed call.
LaunchFloor measure_launch_floor(const Stream& stream, std::int64_t nodes, int warmup, int replays,
                                 kernels::LaunchOrder launch = kernels::LaunchOrder::serial);

}  // namespace layoutcheck::gpu
