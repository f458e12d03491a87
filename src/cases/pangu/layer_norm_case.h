// Pangu's LayerNorm (no affine) as a case (layoutcheck/cases/case.h): rows of C fp16 channels in,
// normalised rows out. The dependence decoder proves each output row reads exactly its own row,
// all of it: a kernel built for another width (two rows normalised as one) or a reduction that
// drops the last partial wave changes other outputs than the reference's.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

std::shared_ptr<const Case> make_pangu_layer_norm_case();

}  // namespace layoutcheck
