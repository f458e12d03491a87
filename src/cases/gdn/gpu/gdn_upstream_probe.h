// The negative control's misread count from the probes (design §6) rather than from the
// contracts: a one-hot sweep of qkvz and ba through the upstream kernel running on the GPU, fed
// the flat buffers. Where the probes and the static diff disagree, that is recorded as a failure.
#pragma once

#include "layoutcheck/bench/gates.h"
#include "cases/gdn/shape.h"
#include "cases/gdn/gpu/gdn_decode_bench.h"

namespace layoutcheck::gpu {

// @post gates.probe holds the GPU probe's elements and misreads (source "GPU probe").
void probe_upstream_direct(const GdnShape& shape, GateRecord& gates, const BenchProgress& progress);

}  // namespace layoutcheck::gpu
