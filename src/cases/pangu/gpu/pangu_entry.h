// The Pangu kernels behind one checked entry, as a framework's custom op binds them: the call is
// checked (check_pangu_call, cases/pangu/operator_call.h) before anything is launched, so an
// illegal call throws InputError and leaves every device buffer as it was. The gathers run once
// per batch row over one uploaded int32 map.
#pragma once

#include <vector>

#include "cases/pangu/operator_call.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {

// tensors: device pointers in operator_tensors(call.op)'s order. Synchronises the stream.
// @post throws InputError (rule "operator-input") before any launch when the call is illegal.
void launch_pangu_call(const pangu::PanguCall& call, const std::vector<void*>& tensors,
                       hipStream_t stream);

}  // namespace layoutcheck::gpu
