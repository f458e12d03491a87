// The data of one GDN decode step (T = 1) as every implementation sees it: the fp64 reference,
// the CPU models of kernels, the GPU paths and the probes all take a GdnStepInputs and return a
// GdnStepOutputs. Buffers are host vectors holding exactly what a device buffer would hold.
//
// Layouts: qkvz, ba and state follow contracts (qkvz and ba row strides are given here, a state
// row is state.size() / batch elements); the conv channel order is [Q all | K all | V all]
// (contracts/gdn/conv_channels.yaml); the conv state is [batch][C][W-1] with the oldest tap
// first; the output is [batch][HV][V].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cases/gdn/shape.h"
#include "layoutcheck/platform/bf16.h"

namespace layoutcheck {

// Per-layer parameters; the same for every batch row.
struct GdnWeights {
  std::vector<bf16_bits> conv_weight;  // [C][W], channel order [Q|K|V]
  std::vector<float> A_log;            // [HV]
  std::vector<float> dt_bias;          // [HV]
  std::vector<bf16_bits> norm_weight;  // [V], used directly (no 1 + w)
};

struct GdnStepInputs {
  GdnShape shape;
  std::int64_t batch = 1;
  std::vector<bf16_bits> qkvz;  // batch rows, each laid out by the qkvz contract
  std::int64_t qkvz_row_stride = 0;
  std::vector<bf16_bits> ba;  // batch rows, each laid out by the ba contract
  std::int64_t ba_row_stride = 0;
  std::vector<bf16_bits> conv_state;  // [batch][C][W-1]
  std::vector<float> state;           // [batch][HV*K*V], each laid out by the state contract
  GdnWeights weights;
};

struct GdnStepOutputs {
  std::vector<bf16_bits> out;         // [batch][HV][V]
  std::vector<bf16_bits> conv_state;  // updated, [batch][C][W-1]
  std::vector<float> state;           // updated, same layout as the input state
};

// Anything that performs one decode step: the reference, a CPU model of a kernel, a GPU path.
// The probe engine treats it as a black box.
class GdnRunner {
 public:
  virtual ~GdnRunner() = default;
  virtual std::string name() const = 0;
  // @pre inputs are well formed (sizes match shape and batch); throws std::runtime_error on
  //      a failure it cannot recover from (GPU errors name the failing call).
  virtual GdnStepOutputs step(const GdnStepInputs& inputs) = 0;
  // The same step written into `outputs`, whose buffers may come from an earlier call: a runner
  // that overrides this reuses them instead of allocating and zeroing megabytes per call (the
  // probes call a runner 10^4 times). The default calls step().
  virtual void step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) {
    outputs = step(inputs);
  }
  // Batch rows per call the probes should use with this runner at this shape (a GPU runner wants
  // as many as its memory allows); 0 lets the caller choose.
  virtual std::int64_t preferred_probe_batch(const GdnShape& /*shape*/) const { return 0; }
};

}  // namespace layoutcheck
