// Where a GDN kernel writes each output element, found without trusting the layout of any input:
// out[hv, v] is the one element that both norm_weight[v] and the decay of value head hv
// (A_log[hv], dt_bias[hv]) move, and the weights' layout is the ABI's, not a contract's. A kernel
// that writes `out` in another order than the model reads it would otherwise be blamed on Z and
// on routing: every input probe answers at the wrong place.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cases/gdn/layouts.h"
#include "cases/gdn/problem.h"

namespace layoutcheck {

struct OutputWrites {
  bool determined = false;  // every element placed at one distinct position of the out row
  std::vector<std::int64_t> position;  // per model index hv * V + v: where the kernel writes it
  std::string detail;                  // why not determined
  std::int64_t runs = 0;               // runner calls

  bool as_model() const;  // determined, and every element where the model reads it
  // "(48,128):(1,48)" (the dims HV, V and their strides) where the positions are affine in hv
  // and v; empty otherwise.
  std::string notation(const GdnShape& shape) const;
};

// About V + 3 HV calls of one batch row, on random inputs laid out by `model` (a few more where
// a head's output hides the moves).
OutputWrites find_output_writes(GdnRunner& runner, const GdnShape& shape, const GdnLayouts& model,
                                std::uint64_t seed);

// `kernel` with its output read back in the model's order, so the input probes judge what it
// read, not where it wrote. @pre writes.determined.
std::unique_ptr<GdnRunner> read_output_as_written(GdnRunner& kernel, OutputWrites writes);

}  // namespace layoutcheck
