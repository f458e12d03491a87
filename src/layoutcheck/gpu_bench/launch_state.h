// Where a process's launch cost settles before anything is timed. On the H200 (CUDA 13), until a
// process has launched about 8 kernels outside any graph, its graph replays launch every kernel
// faster than they ever do afterwards: by 0.12 µs with overlapped launches and 0.35 µs with
// serial ones (kernels/PERF_NOTES.md, session 10; kernels/experiments/bench_vs_tool/). Every
// framework's process is long past that point, so the bench and the timing tool start there too.
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
