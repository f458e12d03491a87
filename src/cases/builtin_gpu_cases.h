// The GPU halves of the built-in cases (GPU builds only): their ABI bindings and benches.
#pragma once

#include "layoutcheck/gpu/abi_binding.h"
#include "layoutcheck/gpu/case_bench.h"

namespace layoutcheck {

void register_builtin_gpu_cases(
    gpu::AbiBindingRegistry& registry = gpu::AbiBindingRegistry::instance(),
    gpu::CaseBenchRegistry& benches = gpu::CaseBenchRegistry::instance());

}  // namespace layoutcheck
