// The Pangu-lite block stack (cases/pangu/block_stack.h) on the GPU: both paths over the same
// device weights, the layout operators the Pangu kernels (native) or the generic ones, the GEMMs
// gemm_f16 (cuBLAS on NVIDIA, the tiled kernel on HIP), attention and bias/GELU shared. Device
// activations come from a pool that reuses buffers by size, as a framework's caching allocator
// does, so a path's peak device memory is what the pool holds, and a second run of the same path
// allocates nothing: that run is captured as one graph and timed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cases/pangu/block_stack.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// The stack's output along `path`, one uncaptured run (the gates' view), on `stream` or on a
// stream of its own.
std::vector<fp16_bits> run_gpu_block_stack(const pangu::BlockStack& stack, pangu::StackPath path,
                                           const std::vector<fp16_bits>& input,
                                           const Stream& stream);
std::vector<fp16_bits> run_gpu_block_stack(const pangu::BlockStack& stack, pangu::StackPath path,
                                           const std::vector<fp16_bits>& input);

struct StackRun {
  std::vector<fp16_bits> output;     // of the first run
  std::vector<fp16_bits> replayed;   // after the graph's last replay: determinism
  std::vector<double> us;            // per timed replay of the whole stack
  std::int64_t launches = 0;         // kernels (and BLAS calls) one stack enqueues
  std::int64_t activation_bytes = 0; // what the pool holds: the path's activations at their peak
  std::int64_t index_bytes = 0;      // the path's device maps or indices
  std::int64_t weight_bytes = 0;     // the same for both paths
  // The device's own reading: its free memory before the path's weights were uploaded less its free
  // memory after the graph's last replay, so the weights, maps, activations, the input and the
  // instantiated graph, whatever the pool counts or not (in the driver's pages). What a path makes
  // at its first run on a thread or stream (the BLAS handle, the stream's BLAS workspace, the
  // kernel modules) counts for it: to compare paths, run each once before on the same stream (the
  // gate does). Free memory is the device's, so another process's allocations move it; a reading
  // below 0 is taken as 0.
  std::int64_t device_bytes = 0;
};

// One run for the output, then the same run captured as one graph and replayed `replays` times
// after `warmup`, every replay over the same input.
// @post throws GpuError if the captured run needed memory the first did not.
StackRun time_gpu_block_stack(const pangu::BlockStack& stack, pangu::StackPath path,
                              const std::vector<fp16_bits>& input, const Stream& stream,
                              int warmup, int replays);

}  // namespace layoutcheck::gpu
