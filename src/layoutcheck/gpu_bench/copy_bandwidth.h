// The copy ceiling every figure is set against: a large device-to-device copy, timed with device
// events, counting bytes read plus bytes written (design §8: every figure beside its floor).
#pragma once

#include <cstdint>

#include "layoutcheck/bench/result.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// @pre bytes > 0, samples > 0. Copies `bytes` from one buffer to another `warmup` times untimed
//      and `samples` times timed; throws GpuError on a failed call.
CopyBandwidth measure_copy_bandwidth(const Stream& stream, std::int64_t bytes, int warmup,
                                     int samples);

}  // namespace layoutcheck::gpu
