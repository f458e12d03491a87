// The overlapped-launch gate (bench/gates.h): overlapped launches must compute exactly what serial
// launches compute. A graph of several layers, each with its own inputs, all sharing one
// workspace as the timed graphs do, is replayed with every kernel launched overlapped and, from
// the same inputs, launched serially with the same splits; every layer's output, state and conv
// state are compared bit for bit. A kernel that touched what the previous kernel writes (the
// shared workspace, the adapters' copies, the baseline's intermediates) before its wait would
// race with it and differ.
#pragma once

#include <vector>

#include "layoutcheck/bench/gates.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/gpu/gdn_paths.h"

namespace layoutcheck::gpu {

// @pre layer_inputs not empty, all of one shape and batch; replays > 0. options.launch is
//      ignored (both orders run). Throws GpuError on a failed call.
BitwiseCheck check_overlapped_launches(GdnPath path, GdnPathOptions options,
                                       const std::vector<GdnStepInputs>& layer_inputs, int replays);

}  // namespace layoutcheck::gpu
