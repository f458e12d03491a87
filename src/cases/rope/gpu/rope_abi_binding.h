// The GPU half of the rope case: how a rope_apply_v1 port's RopeApplyArgs is packed.
#pragma once

#include "layoutcheck/gpu/abi_binding.h"

namespace layoutcheck::gpu {

AbiBinding rope_abi_binding();

}  // namespace layoutcheck::gpu
