// `layoutcheck bench --case pangu`: the Pangu-Weather operators (LayerNorm, residual add +
// LayerNorm, the shifted window gather, LayerNorm fused with it) at both real grid levels, the
// generic path (pangu_generic_kernels.h, as a framework runs them) beside the native one
// (pangu_kernels.h), each path gated against the CPU reference before it is timed as graph
// replays over rotating buffers, every time beside its floor and, when the request names a
// figures file from scripts/pangu-framework-bench.py, beside the framework's figure.
#pragma once

#include "layoutcheck/bench/bench_request.h"
#include "layoutcheck/bench/operator_report.h"
#include "layoutcheck/gpu/case_bench.h"

namespace layoutcheck::gpu {

// @post throws GpuError when there is no GPU, InputError when the framework figures file cannot
//       be read or was measured on another GPU (framework_figures.h), before anything is timed.
OperatorBenchReport run_pangu_bench(const BenchRequest& request, const BenchProgress& say);

}  // namespace layoutcheck::gpu
