// Declared traffic of the GDN decode paths (design §7), per layer: what each stage must read and
// write given the shape, counting every buffer once per launch (weights once per launch, not per
// row: they stay cache-resident across rows). These declarations are what the floor and the
// fairness table are computed from, so they follow the kernels stage by stage.
#pragma once

#include <vector>

#include "layoutcheck/bench/traffic.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

// The fewest bytes one decode step can move: qkvz, ba, conv state and state read once; conv
// state, state and output written once; the weights read once.
ByteCount gdn_minimum_traffic(const GdnShape& shape);

// Production on the flat layout as separate kernels: conv update, gating, recurrent update, gated
// RMSNorm. Intermediates as kernels/gdn/gdn_kernels.h keeps them: conv output, g and beta fp32, the
// recurrent output o bf16. Stage names are those of gpu::GdnPathLauncher::stages().
std::vector<StageTraffic> gdn_baseline_stages(const GdnShape& shape);

// The fused kernel's one launch, whichever layout it reads (native, upstream, upstream-direct).
StageTraffic gdn_fused_stage(const GdnShape& shape, const std::string& name);

// Adapters flat → interleaved for qkvz and ba (work production never does), then the fused
// upstream kernel on the interleaved copies.
std::vector<StageTraffic> gdn_adapter_upstream_stages(const GdnShape& shape);

}  // namespace layoutcheck
