// The GPU half of the Pangu LayerNorm cases: how a pangu_layer_norm_v1 port's PanguLayerNormArgs
// and a pangu_add_layer_norm_v1 port's PanguAddLayerNormArgs are packed
// (kernels/pangu/pangu_abi.h).
#pragma once

#include "layoutcheck/gpu/abi_binding.h"

namespace layoutcheck::gpu {

AbiBinding pangu_layer_norm_abi_binding();
AbiBinding pangu_add_layer_norm_abi_binding();

}  // namespace layoutcheck::gpu
