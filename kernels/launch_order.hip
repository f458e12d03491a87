// Whether this build's kernels carry the wait of launch_order.h: asked of a kernel compiled like
// all the others.
#include "kernels/launch_order.h"

namespace layoutcheck::kernels {

#if defined(LC_GPU_VENDOR_NVIDIA)
namespace {

__global__ void waits_for_previous_kernel() {
  await_previous_kernel();
}

}  // namespace
#endif

bool overlapped_launches_built() {
#if defined(LC_GPU_VENDOR_NVIDIA)
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, waits_for_previous_kernel) != cudaSuccess) {
    (void)cudaGetLastError();  // leave no sticky error for later checks
    return false;
  }
  return attributes.ptxVersion >= 90;
#else
  return false;
#endif
}

}  // namespace layoutcheck::kernels
