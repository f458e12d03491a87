// The GPU half of the Pangu window cases: how a pangu_window_gather_v1 port's (the gather, and
// LayerNorm fused with it) and a pangu_window_reverse_v1 port's PanguWindowArgs are packed
// (kernels/pangu/pangu_abi.h).
#pragma once

#include "layoutcheck/gpu/abi_binding.h"

namespace layoutcheck::gpu {

AbiBinding pangu_window_gather_abi_binding();
AbiBinding pangu_window_reverse_abi_binding();

}  // namespace layoutcheck::gpu
