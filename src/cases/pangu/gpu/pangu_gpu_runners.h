// The Pangu kernels (kernels/pangu/pangu_kernels.h) behind the cases' CaseRunner interface, so
// the shared probe engine and the value checks treat them as they treat the CPU references:
// the window gather and its reverse (their maps generated from the windows contract they are
// built for), the LayerNorm, the residual add + LayerNorm and LayerNorm fused with the gather. Rows must be contiguous and the width one the kernels are built for: anything else
// is an error at construction, before any launch.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck::gpu {

// @post throws InputError (rule "case-layout") when the layouts are not the kernel's.
std::unique_ptr<CaseRunner> make_gpu_window_gather(const CaseLayouts& layouts);
// The same kernel over the reverse map: windows back onto the grid.
std::unique_ptr<CaseRunner> make_gpu_window_reverse(const CaseLayouts& layouts);
std::unique_ptr<CaseRunner> make_gpu_layer_norm(const CaseLayouts& layouts);
std::unique_ptr<CaseRunner> make_gpu_add_layer_norm(const CaseLayouts& layouts);
std::unique_ptr<CaseRunner> make_gpu_layer_norm_gather(const CaseLayouts& layouts);

}  // namespace layoutcheck::gpu
