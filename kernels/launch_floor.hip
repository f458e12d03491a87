#include "kernels/launch_floor_kernel.h"
#include "kernels/launch_order.h"
#include "layoutcheck/gpu/check.h"

namespace layoutcheck::kernels {
namespace {

// Launched overlapped it must wait before its increment; launched serially it has nothing to wait
// for, and the wait's own cost stays out of the floor.
template <bool kWaits>
__global__ void count_node(unsigned* counter) {
  if constexpr (kWaits) await_previous_kernel();
  *counter += 1;
}

}  // namespace

void launch_counting_node(unsigned* counter, hipStream_t stream, LaunchOrder launch) {
  if (launch == LaunchOrder::overlapped)
    launch_kernel(launch, count_node<true>, 1, 1, 0, stream, counter);
  else
    launch_kernel(launch, count_node<false>, 1, 1, 0, stream, counter);
  LC_GPU_CHECK_LAUNCH("count_node");
}

}  // namespace layoutcheck::kernels
