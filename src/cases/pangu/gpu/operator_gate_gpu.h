// The GPU half of Pangu's merge gates (cases/pangu/operator_gate.h): every operator input through
// the checked entry (pangu_entry.h) — valid and boundary calls against the references, illegal
// ones refused with every output buffer still holding its poison bytes, so nothing was launched —
// and the block stack at the real grids, native against generic (the model gate) and timed with
// its device memory (the end-to-end gate). Registered as the "pangu" gates' device half.
#pragma once

#include <vector>

#include "layoutcheck/cases/gate_report.h"

namespace layoutcheck::gpu {

std::vector<GateCheck> pangu_device_gates(const GateRequest& request);

}  // namespace layoutcheck::gpu
