// Overlapped launches: programmatic dependent launch on NVIDIA sm_90 and newer. A kernel launched
// overlapped may start while the kernel before it on the stream is still finishing, so the launch
// latency and its first loads hide behind that kernel's tail. The contract every kernel started
// through gdn_kernels.h keeps:
//   - before await_previous_kernel() it only reads, and only what the previous kernel on the
//     stream cannot write (the caller's guarantee): a layer's own recurrent state, conv state and
//     weights; what it reads after the wait it may before the wait only prefetch (prefetch_to_l2);
//   - every thread calls await_previous_kernel() before any other read or any write, and that
//     call lets the next kernel start only once this one's wait is over, so when any kernel begins
//     its early loads every kernel before the one it overlaps has finished.
// gfx9 has no such launch: on HIP every launch is serial and the wait is nothing.
#pragma once

#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

enum class LaunchOrder {
  serial,      // starts once the previous kernel on the stream has finished
  overlapped,  // may start while it finishes (NVIDIA sm_90+; serial elsewhere)
};

// Whether the kernels were compiled with the wait (for sm_90 or newer): a build for an older
// architecture, run on a Hopper through PTX, has none, and launched overlapped it would race.
// False on HIP. Never throws.
bool overlapped_launches_built();

#if defined(__CUDACC__) || defined(__HIP__)  // the device compilers only

// Waits for the previous kernel on the stream (finished, its writes visible), then lets the next
// one start. After a serial launch there is nothing to wait for.
__device__ inline void await_previous_kernel() {
#if defined(LC_GPU_VENDOR_NVIDIA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// A hint that the line holding p is read soon: it is fetched into L2 and nothing else changes.
// Safe before the wait even on what the previous kernel is still writing: the data is read (again)
// after the wait, and L2 is where that kernel's writes land. Nothing on HIP.
__device__ inline void prefetch_to_l2(const void* p) {
#if defined(LC_GPU_VENDOR_NVIDIA) && defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...), overlapped when asked and the vendor has
// it. Errors are left for LC_GPU_CHECK_LAUNCH, as after <<<>>>.
template <class... Params, class... Args>
void launch_kernel(LaunchOrder order, void (*kernel)(Params...), dim3 grid, dim3 block,
                   unsigned shared_bytes, hipStream_t stream, Args... args) {
#if defined(LC_GPU_VENDOR_NVIDIA)
  if (order == LaunchOrder::overlapped) {
    cudaLaunchAttribute overlap{};
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared_bytes;
    config.stream = stream;
    config.attrs = &overlap;
    config.numAttrs = 1;
    (void)cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
    return;
  }
#endif
  (void)order;
  kernel<<<grid, block, shared_bytes, stream>>>(static_cast<Params>(args)...);
}

#endif

}  // namespace layoutcheck::kernels
