// What one probe changed: the differences of one batch row of a kernel's outputs from the base
// outputs. The output and conv-state layouts are fixed (problem.h); the state is attributed to
// value heads through the state contract the kernel claims to write.
#pragma once

#include <cstdint>
#include <vector>

#include "cases/gdn/problem.h"
#include "cases/gdn/shape.h"
#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

struct RowResponse {
  bool changed = false;                 // anything differs from the base row
  std::vector<float> out_delta;         // [HV*V] probe - base; empty when nothing changed
  std::vector<std::int64_t> out_lanes;  // value heads whose output changed
  // Conv channels whose newest tap changed, and the value it holds now.
  std::vector<std::int64_t> conv_channels;
  std::vector<bf16_bits> conv_values;
  bool conv_older_taps_changed = false;  // a correct shift never changes them
  // Value heads whose state changed, with the change in logical order S[k][v] as the claimed
  // state layout places it (same order).
  std::vector<std::int64_t> state_lanes;
  std::vector<std::vector<double>> state_lane_deltas;
  double state_norm = 0;                   // ||delta S|| over the row
  std::int64_t state_changed = 0;          // elements that changed
  std::int64_t state_largest_offset = -1;  // row offset of the largest |delta S|
  bool state_outside_heads = false;        // a change at an offset no head's region covers
};

class ResponseExtractor {
 public:
  ResponseExtractor(const GdnShape& shape, const Contract& state_layout);

  // @pre outputs of batch rows (checked: throws std::runtime_error naming what is missing).
  void check_outputs(const GdnStepOutputs& outputs, std::int64_t batch,
                     const std::string& runner) const;

  // Row `row` of `probe` against row `base_row` of `base`.
  RowResponse extract(const GdnStepOutputs& probe, std::int64_t row, const GdnStepOutputs& base,
                      std::int64_t base_row) const;

 private:
  GdnShape shape_;
  std::int64_t state_row_size_ = 0, state_row_stride_ = 0;
  std::vector<std::int64_t> element_at_offset_;  // S linear index, -1 where no element is
};

}  // namespace layoutcheck
