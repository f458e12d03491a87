// Reading and writing GDN buffers through their contracts: the offset tables of the qkvz, ba and
// state contracts, resolved once, and the gathers into logical fp64 order that the reference and
// the CPU kernel models run per batch row.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cases/gdn/layouts.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

// One batch row in logical order, fp64 (b and a stay fp32: the gates are computed in fp32).
struct GdnRowData {
  std::vector<double> x;      // [C] raw current inputs, channel order [Q all | K all | V all]
  std::vector<double> taps;   // [C*(W-1)] conv state, oldest tap first
  std::vector<double> z;      // [HV*V]
  std::vector<float> b, a;    // [HV]
  std::vector<double> state;  // [HV*K*V] S[hv][k][v]; filled only when asked for
};

// The per-layer parameters in fp64.
struct GdnWeightsF64 {
  std::vector<double> conv_weight;  // [C*W]
  std::vector<double> norm_weight;  // [V]
  std::vector<float> A_log, dt_bias;
};

class GdnLayoutAccess {
 public:
  // @pre validate_gdn_layouts(layouts, shape) passed.
  GdnLayoutAccess(const GdnShape& shape, const GdnLayouts& layouts);

  const GdnShape& shape() const { return shape_; }
  std::int64_t state_row_stride() const { return state_row_stride_; }

  // Throws std::invalid_argument naming the buffer whose size does not fit shape, batch and the
  // row strides.
  void check_inputs(const GdnStepInputs& inputs, std::int64_t qkvz_row_stride) const;

  // Gathers row `row` of qkvz (rows qkvz_row_stride apart), ba, conv state and, when with_state,
  // the state (through the state contract) into data.
  void read_row(const GdnStepInputs& inputs, std::int64_t row, std::int64_t qkvz_row_stride,
                GdnRowData& data, bool with_state) const;

  // One head's K x V state of row `row`, fp32 through the state contract -> fp64 row-major.
  void read_head_state(std::span<const float> state, std::int64_t row, std::int64_t hv,
                       double* out) const;
  // The reverse: fp64 row-major -> fp32 at the contract's offsets.
  void write_head_state(const double* head_state, std::int64_t row, std::int64_t hv,
                        std::span<float> state) const;

  // When every head's state is stored as contiguous rows (S[hv,k,v] at base(hv) + k*stride + v),
  // kernels models read and write it in place; otherwise through read/write_head_state.
  bool state_rows_contiguous() const { return state_affine_ && v_stride_ == 1; }
  std::int64_t head_state_offset(std::int64_t hv) const {
    return head_base_[static_cast<std::size_t>(hv)];
  }
  std::int64_t state_k_stride() const { return k_stride_; }
  // Every offset of a state row holds an element, and rows follow each other without gaps.
  bool state_rows_dense() const { return state_dense_; }

 private:
  GdnShape shape_;
  std::int64_t qkvz_row_size_ = 0, ba_row_size_ = 0, state_row_size_ = 0;
  std::int64_t state_row_stride_ = 0;
  std::vector<std::int64_t> channel_offsets_, z_offsets_, b_offsets_, a_offsets_;
  std::vector<std::int64_t> state_offsets_;
  // When every head's state is S[hv,k,v] = head_base[hv] + k*k_stride + v*v_stride, the
  // gathers use strides instead of the table.
  bool state_affine_ = false;
  std::vector<std::int64_t> head_base_;
  std::int64_t k_stride_ = 0, v_stride_ = 0;
  bool state_dense_ = false;
};

// bf16 -> fp32 -> fp64 of a whole vector; fp32 -> fp64.
std::vector<double> to_f64(std::span<const bf16_bits> values);
GdnWeightsF64 to_f64(const GdnWeights& weights, const GdnShape& shape);

}  // namespace layoutcheck
