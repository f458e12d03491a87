// The GPU halves of the built-in cases (GPU builds only): their ABI bindings.
#pragma once

#include "layoutcheck/gpu/abi_binding.h"

namespace layoutcheck {

void register_builtin_gpu_cases(
    gpu::AbiBindingRegistry& registry = gpu::AbiBindingRegistry::instance());

}  // namespace layoutcheck
