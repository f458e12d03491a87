// One layer's GDN decode buffers on the device: activations, conv state, state, weights and the
// output, sized and laid out exactly as a GdnStepInputs holds them on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cases/gdn/problem.h"
#include "kernels/gdn/gdn_abi.h"
#include "layoutcheck/gpu/buffer.h"

namespace layoutcheck::gpu {

class GdnDeviceLayer {
 public:
  // @pre inputs are well formed (sizes match shape, batch and row strides; the state holds batch
  //      equal rows). Throws std::invalid_argument naming the buffer otherwise.
  // guard_bytes: a guard zone after every buffer (gpu/buffer.h), set at every upload, for a
  // port whose writes past a buffer's end must be seen; 0 for the project's own paths.
  explicit GdnDeviceLayer(const GdnStepInputs& inputs, std::size_t guard_bytes = 0);

  // Same sizes as at construction (else std::invalid_argument): copies every buffer again.
  void upload(const GdnStepInputs& inputs);
  bool fits(const GdnStepInputs& inputs) const;

  // Output, conv state and state after the step.
  GdnStepOutputs download() const;
  // The same into buffers an earlier call sized (the probes' 10^4 calls reuse them).
  void download_into(GdnStepOutputs& outputs) const;
  // Sets every output byte to 0xff (bf16 NaN) so an element a kernel fails to write shows.
  void poison_output();

  // The buffers written past their end since the upload: (buffer, message).
  std::vector<std::pair<std::string, std::string>> guard_findings() const;

  // The ABI arguments over these buffers; the workspace members are left null/zero.
  GdnDecodeArgs args();

  const GdnShape& shape() const { return shape_; }
  std::int64_t batch() const { return batch_; }

  DeviceBuffer<bf16_bits> qkvz, ba, conv_state, out;
  DeviceBuffer<float> state;
  DeviceBuffer<bf16_bits> conv_weight, norm_weight;
  DeviceBuffer<float> A_log, dt_bias;

 private:
  // Every device buffer with its ABI name; Self is const or not.
  template <class Self, class Visit>
  static void for_each_buffer(Self& self, Visit visit) {
    visit("qkvz", self.qkvz);
    visit("ba", self.ba);
    visit("conv_state", self.conv_state);
    visit("out", self.out);
    visit("state", self.state);
    visit("conv_weight", self.conv_weight);
    visit("norm_weight", self.norm_weight);
    visit("A_log", self.A_log);
    visit("dt_bias", self.dt_bias);
  }

  GdnShape shape_;
  std::int64_t batch_ = 0;
  std::int64_t qkvz_row_stride_ = 0, ba_row_stride_ = 0, state_row_stride_ = 0;
};

// Batch rows per probe call on the GPU: a step costs a few transfers whatever the batch, so as
// many rows as keep the state (read and written, host and device) within about 512 MiB, 2 to 1024.
std::int64_t gpu_probe_batch(const GdnShape& shape);

// @post throws std::invalid_argument with the first buffer whose size does not fit.
void check_step_inputs(const GdnStepInputs& inputs);

}  // namespace layoutcheck::gpu
