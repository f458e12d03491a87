// The one-hot sweep (design brief section 6): every offset of the probed buffer's row, one per
// batch row, many per runner call; the decoded reads assembled into a read map and judged against
// the producer's contract, checked against the static diff, the row stride and the values.
//
//   ReferenceRunner kernel(shape, interleaved_gdn_layouts(shape));   // built for Qwen3-Next
//   ProbeTarget target{shape, GdnBuffer::qkvz, flat_qkvz_contract(shape),
//                      interleaved_gdn_layouts(shape)};                // fed Qwen3.5 buffers
//   ProbeVerdict verdict = probe_gdn_runner(kernel, target);
//   verdict.reads.misread  ->  16128 (the same set the static diff names: agrees_with_diff)
#pragma once

#include "cases/gdn/probe/probe_options.h"
#include "cases/gdn/probe/verdict.h"
#include "cases/gdn/problem.h"

namespace layoutcheck {

// @post throws InputError (rule "gdn-layout" or "incompatible") when the contracts do not fit the
//       shape or each other; std::runtime_error when the runner fails.
ProbeVerdict probe_gdn_runner(GdnRunner& runner, const ProbeTarget& target,
                              const ProbeOptions& options = {});

// The batch the CPU models probe with when ProbeOptions::max_batch is 0: a few rows, so that the
// state of one call stays in cache.
std::int64_t default_probe_batch(const GdnShape& shape);

}  // namespace layoutcheck
