// The static diff: what a kernel built for the consumer's layout misreads when fed buffers laid out
// by the producer's contract.
#pragma once

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/diff/read_map.h"

namespace layoutcheck {

// @pre both contracts passed the layout checks.
// @post throws InputError (rule "incompatible") when fields, shapes or dtypes differ; otherwise the
//       report of compare_reads with the read map the consumer's contract declares, and the
//       structure of compare_structure.
MisreadReport diff_contracts(const Contract& producer, const Contract& consumer);

}  // namespace layoutcheck
