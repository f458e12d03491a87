// The GPU runners the probe command offers (probe/runner_registry.h):
//   gpu                     the shipped fused kernel built for the consumer's layouts: native when
//                           the consumer reads Qwen3.5's flat buffers, upstream when it reads
//                           Qwen3-Next's interleaved ones (the analogue of the "cpu" model)
//   gpu:native, gpu:upstream, gpu:adapter+upstream, gpu:baseline
//                           one path whatever the consumer says (gpu:upstream fed flat buffers is
//                           the upstream-direct bug); the state layout follows the consumer's
//                           state contract ([HV,K,V] or [HV,V,K])
#include "cases/gdn/gpu/gpu_runner_registry.h"

#include <stdexcept>

#include "layoutcheck/diff/diff.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/gpu/gdn_gpu_runner.h"
#include "cases/gdn/probe/runner_registry.h"

namespace layoutcheck {
namespace {

bool same_layout(const Contract& a, const Contract& b) {
  try {
    return diff_contracts(a, b).misread == 0 && a.row_size == b.row_size;
  } catch (const InputError&) {
    return false;  // other fields or shapes
  }
}

StateOrder state_order_of(const RunnerRequest& request) {
  if (same_layout(request.consumer.state, state_contract(request.shape, StateOrder::hkv)))
    return StateOrder::hkv;
  if (same_layout(request.consumer.state, state_contract(request.shape, StateOrder::hvk)))
    return StateOrder::hvk;
  throw InputError(
      Diagnostic{SourceLocation{request.consumer.state.file}, Severity::error, "backend",
                 "no shipped GPU kernel keeps the state as " + request.consumer.state.name,
                 "the GPU kernels keep [HV,K,V] (state.hkv.yaml) or [HV,V,K] "
                 "(state.hvk.yaml); run a ported kernel with `layoutcheck run`"});
}

std::unique_ptr<GdnRunner> path_runner(gpu::GdnPath path, const RunnerRequest& request) {
  gpu::GdnPathOptions options;
  options.state_order = state_order_of(request);
  return std::make_unique<gpu::GdnGpuRunner>(path, options);
}

// The fused kernel whose qkvz/ba layout is the consumer's.
std::unique_ptr<GdnRunner> matching_runner(const RunnerRequest& request) {
  const GdnShape& shape = request.shape;
  if (same_layout(request.consumer.qkvz, flat_qkvz_contract(shape)) &&
      same_layout(request.consumer.ba, flat_ba_contract(shape)))
    return path_runner(gpu::GdnPath::native, request);
  if (same_layout(request.consumer.qkvz, interleaved_qkvz_contract(shape)) &&
      same_layout(request.consumer.ba, interleaved_ba_contract(shape)))
    return path_runner(gpu::GdnPath::upstream_direct, request);
  throw InputError(Diagnostic{SourceLocation{request.consumer.qkvz.file}, Severity::error,
                              "backend",
                              "no shipped GPU kernel reads " + request.consumer.qkvz.name +
                                  " with " + request.consumer.ba.name,
                              "the shipped kernels read qwen3_5.* (native) or qwen3_next.* "
                              "(upstream); run a ported kernel with `layoutcheck run`"});
}

}  // namespace

void register_gpu_runners(RunnerRegistry& registry) {
  registry.add("gpu", "the shipped fused GPU kernel built for the consumer's layouts",
               matching_runner);
  registry.add("gpu:native", "GPU: the fused kernel reading Qwen3.5's flat layout",
               [](const RunnerRequest& r) { return path_runner(gpu::GdnPath::native, r); });
  registry.add(
      "gpu:upstream", "GPU: the fused kernel reading Qwen3-Next's interleaved layout",
      [](const RunnerRequest& r) { return path_runner(gpu::GdnPath::upstream_direct, r); });
  registry.add(
      "gpu:adapter+upstream", "GPU: flat -> interleaved adapters, then the upstream fused kernel",
      [](const RunnerRequest& r) { return path_runner(gpu::GdnPath::adapter_upstream, r); });
  registry.add("gpu:baseline",
               "GPU: the production path on the flat layout (conv, gating, recurrent, norm)",
               [](const RunnerRequest& r) { return path_runner(gpu::GdnPath::baseline, r); });
}

}  // namespace layoutcheck
