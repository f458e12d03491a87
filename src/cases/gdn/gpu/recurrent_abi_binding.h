// The GPU half of the gdn-recurrent case: how gdn_recurrent_v1's argument is packed.
#pragma once

#include "layoutcheck/gpu/abi_binding.h"

namespace layoutcheck::gpu {

AbiBinding gdn_recurrent_abi_binding();

}  // namespace layoutcheck::gpu
