#include "kernels/launch_floor_kernel.h"
#include "kernels/launch_order.h"
#include "layoutcheck/gpu/check.h"

namespace layoutcheck::kernels {
namespace {

__global__ void count_node(unsigned* counter) {
  await_previous_kernel();
  *counter += 1;
}

}  // namespace

void launch_counting_node(unsigned* counter, hipStream_t stream, LaunchOrder launch) {
  launch_kernel(launch, count_node, 1, 1, 0, stream, counter);
  LC_GPU_CHECK_LAUNCH("count_node");
}

}  // namespace layoutcheck::kernels
