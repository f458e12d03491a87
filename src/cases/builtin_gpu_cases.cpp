// The GPU half of src/cases/builtin_cases.cpp, beside it so that adding a case is one line in
// each. It lives here rather than in src/layoutcheck/gpu/ (where the toolkit would name cases) or
// in a case's gpu/ folder (where one case would register the others); src/cases/*.cpp is the CPU
// library's glob, so src/CMakeLists.txt takes this one file out of it and into layoutcheck_gpu.
#include "cases/builtin_gpu_cases.h"

#include "cases/gdn/bench/gdn_bench_options.h"
#include "cases/gdn/gpu/gdn_decode_bench.h"
#include "cases/gdn/gpu/recurrent_abi_binding.h"
#include "cases/pangu/gpu/layer_norm_abi_binding.h"
#include "cases/pangu/gpu/operator_gate_gpu.h"
#include "cases/pangu/gpu/pangu_bench.h"
#include "cases/pangu/gpu/window_abi_binding.h"
#include "layoutcheck/cases/gate_report.h"
#include "cases/rope/gpu/rope_abi_binding.h"

namespace layoutcheck {

// One line per ABI with a GPU binding (GDN's decode ABI, gdn_decode_v1, has its own path: `run`
// with a version-1 manifest), one per case with a bench, one per case with gates' device half.
void register_builtin_gpu_cases(gpu::AbiBindingRegistry& registry,
                                gpu::CaseBenchRegistry& benches) {
  registry.add(gpu::gdn_recurrent_abi_binding());
  registry.add(gpu::rope_abi_binding());
  registry.add(gpu::pangu_window_gather_abi_binding());
  registry.add(gpu::pangu_window_reverse_abi_binding());
  registry.add(gpu::pangu_layer_norm_abi_binding());
  registry.add(gpu::pangu_add_layer_norm_abi_binding());
  benches.add({"gdn", [](const BenchRequest& request, const gpu::BenchProgress& progress) {
                 return gpu::run_gdn_decode_bench(gdn_bench_options(request), progress);
               }});
  benches.add({"pangu-layernorm", nullptr, gpu::run_pangu_bench});
  CaseGateRegistry::instance().set_device("pangu", gpu::pangu_device_gates);
}

}  // namespace layoutcheck
