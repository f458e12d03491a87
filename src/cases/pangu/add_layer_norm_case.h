// Pangu's residual add + LayerNorm as a case (layoutcheck/cases/case.h): residual and branch in,
// residual_out = fp16(residual + branch) and out = LayerNorm(residual_out) out, rows of C fp16
// channels. The dependence decoder proves each output row reads exactly its own row of both
// inputs; the rounding-point probe proves the statistics are taken of the rounded residual: its
// branch is below half an fp16 step of the residual, so the rounded sum is the residual itself
// and a kernel that normalises the fp32 sum sees another row.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

std::shared_ptr<const Case> make_pangu_add_layer_norm_case();

}  // namespace layoutcheck
