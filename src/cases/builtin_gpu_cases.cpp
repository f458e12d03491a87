// The GPU half of src/cases/builtin_cases.cpp, beside it so that adding a case is one line in
// each. It lives here rather than in src/layoutcheck/gpu/ (where the toolkit would name cases) or
// in a case's gpu/ folder (where one case would register the others); src/cases/*.cpp is the CPU
// library's glob, so src/CMakeLists.txt takes this one file out of it and into layoutcheck_gpu.
#include "cases/builtin_gpu_cases.h"

#include "cases/rope/gpu/rope_abi_binding.h"

namespace layoutcheck {

// One line per case with a GPU binding. (GDN's ported kernels have their own path, `run` with a
// version-1 manifest, and no binding yet.)
void register_builtin_gpu_cases(gpu::AbiBindingRegistry& registry) {
  registry.add(gpu::rope_abi_binding());
}

}  // namespace layoutcheck
