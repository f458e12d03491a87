// A runner against the fp64 reference on random inputs laid out as the runner claims to read
// them: the check that tells a numeric bug ("no layout misread, values differ") from a clean
// kernel once the probes found every element where it belongs.
#pragma once

#include <cstdint>

#include "cases/gdn/layouts.h"
#include "cases/gdn/probe/verdict.h"
#include "cases/gdn/problem.h"

namespace layoutcheck {

struct ValueCheckOptions {
  std::int64_t batch = 2;
  std::uint64_t seed = 1;
  double out_tolerance = 2e-2;    // relative L2 of the bf16 output
  double state_tolerance = 1e-5;  // relative L2 of the fp32 state
};

// @post the runner's outputs compared with GdnReference(shape, layouts): output and state relative
//       L2 within tolerance, conv state bitwise equal. Throws what the runner throws.
ValueCheck check_values(GdnRunner& runner, const GdnShape& shape, const GdnLayouts& layouts,
                        const ValueCheckOptions& options = {});

}  // namespace layoutcheck
