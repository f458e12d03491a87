// Where a process's launch cost settles before anything is timed. On the H200 (CUDA 13), the
// library's processes replay graph kernels faster until they have made about 8 launches or
// memsets outside any graph: native at batch 1 by 0.12 µs a launch overlapped and 0.35 µs
// serially (kernels/PERF_NOTES.md, session 10; kernels/experiments/bench_vs_tool/). A plain CUDA
// program runs the same kernel at the faster figure whatever it has launched
// (kernels/experiments/launch_state_cost.cu), so it is something these processes do, not found
// yet. The bench always timed its paths after its gates, in the slower state; so the bench and the
// timing tool settle first, and everything they report is timed in that one state, which
// reproduces.
#pragma once

#include <cstdint>

#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// Four times the launches the H200 needed, so a driver that needs a few more still settles.
inline constexpr int kSettlingLaunches = 32;

// @pre launches > 0 (else std::invalid_argument, before any GPU call). Launches `launches`
//      one-thread kernels on `stream`, outside any graph, waits for them and returns how many
//      ran, as counted on the device. Throws GpuError on a failed call.
std::int64_t settle_launch_state(const Stream& stream, int launches = kSettlingLaunches);

}  // namespace layoutcheck::gpu
