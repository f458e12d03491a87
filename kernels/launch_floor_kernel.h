// The smallest kernel a graph node can hold, for the bench's launch floor
// (src/layoutcheck/gpu_bench/launch_floor.h): one thread adds 1 to a counter, so the launch does
// observable work and no compiler or driver can drop it.
#pragma once

#include "kernels/launch_order.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

// @pre counter points to device memory. Checked (throws gpu::GpuError).
void launch_counting_node(unsigned* counter, hipStream_t stream,
                          LaunchOrder launch = LaunchOrder::serial);

}  // namespace layoutcheck::kernels
