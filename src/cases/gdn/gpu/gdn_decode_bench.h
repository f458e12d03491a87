// The GDN decode bench on the GPU: gates every path against the fp64 reference, then times each
// VALID path as one graph holding all layers, next to the device-to-device copy bandwidth measured
// in the same run. Returns the result model; rendering is the caller's.
#pragma once

#include <functional>
#include <string>

#include "cases/gdn/bench/gdn_bench_options.h"
#include "layoutcheck/bench/result.h"
#include "layoutcheck/gpu/case_bench.h"

namespace layoutcheck::gpu {


// @pre validate_bench_options(options) passed.
// @post throws GpuError when no GPU can be used, or a GPU call fails outside a path's gates (a
//       failure inside a path's gates makes that path INVALID instead).
BenchReport run_gdn_decode_bench(const GdnBenchOptions& options, const BenchProgress& progress);

}  // namespace layoutcheck::gpu
