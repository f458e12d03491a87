// The copy ceiling every figure is set against: a large device-to-device copy, timed with device
// events, counting bytes read plus bytes written (design §8: every figure beside its floor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "layoutcheck/bench/result.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// @pre bytes > 0, samples > 0. Copies `bytes` from one buffer to another `warmup` times untimed
//      and `samples` times timed; throws GpuError on a failed call.
CopyBandwidth measure_copy_bandwidth(const Stream& stream, std::int64_t bytes, int warmup,
                                     int samples);

// A copy moving `bytes` (half read, half written), timed as an operator is: a graph of `calls`
// copies over `sets` pairs of buffers in turn. Returns one sample per timed replay, µs per copy.
// The driver copies a size that is no multiple of 4 KiB far slower than a slightly smaller one, so
// this copies the largest multiple of 64 KiB within the half and scales the time.
// @pre bytes > 0, sets > 0, calls > 0, replays > 0.
std::vector<double> time_copy_of(const Stream& stream, std::int64_t bytes, std::size_t sets,
                                 int calls, int warmup, int replays);

}  // namespace layoutcheck::gpu
