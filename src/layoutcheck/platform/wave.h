// Wave-size-agnostic device helpers: the compile-time wave size (64 on gfx9 AMD GPUs, 32 on
// NVIDIA), 64-bit lane masks, shuffles and deterministic reductions. Kernels never write the
// number 32: they use kWaveSize, and reductions over a group of lanes state the group size.
// Included by gpu_runtime.h, which defines the vendor macro first; also compiled by hipRTC/NVRTC.
#pragma once

#if !defined(LC_GPU_VENDOR_AMD) && !defined(LC_GPU_VENDOR_NVIDIA)
#error "include layoutcheck/platform/gpu_runtime.h, which chooses the vendor"
#endif

namespace layoutcheck::wave {

#if defined(LC_GPU_VENDOR_AMD)
#if defined(__AMDGCN_WAVEFRONT_SIZE)
inline constexpr int kWaveSize = __AMDGCN_WAVEFRONT_SIZE;
#else
// hipcc's host pass: device code is parsed but never run there, and host code takes the wave size
// from the device properties. 64 is the largest wave, so shared arrays sized by it are enough.
inline constexpr int kWaveSize = 64;
#endif
#else
inline constexpr int kWaveSize = 32;  // every NVIDIA GPU
#endif

// One bit per lane of a wave; 64 bits so that wave-64 GPUs fit.
using lane_mask = unsigned long long;

// Waves in the largest block (1024 threads): sizes shared scratch for block reductions.
inline constexpr int kMaxBlockWaves = 1024 / kWaveSize;

#if defined(__HIPCC__) || defined(__CUDACC__) || defined(__HIPCC_RTC__) || defined(__CUDACC_RTC__)

__device__ inline int lane_id() {
  return static_cast<int>(threadIdx.x) & (kWaveSize - 1);
}

__device__ inline float shfl_xor(float value, int lane_offset) {
#if defined(LC_GPU_VENDOR_AMD)
  return __shfl_xor(value, lane_offset, kWaveSize);
#else
  return __shfl_xor_sync(~0u, value, lane_offset, kWaveSize);
#endif
}

// Lane `source`'s value, in every lane of the wave.
__device__ inline int broadcast(int value, int source) {
#if defined(LC_GPU_VENDOR_AMD)
  return __shfl(value, source, kWaveSize);
#else
  return __shfl_sync(~0u, value, source, kWaveSize);
#endif
}

// Lane 0's value, in every lane of the wave.
__device__ inline int broadcast_first(int value) {
  return broadcast(value, 0);
}

__device__ inline lane_mask ballot(bool predicate) {
#if defined(LC_GPU_VENDOR_AMD)
  return static_cast<lane_mask>(__ballot(predicate));
#else
  return static_cast<lane_mask>(__ballot_sync(~0u, predicate));
#endif
}

// Sum over each aligned group of kGroup consecutive lanes; every lane of the group gets the sum.
// The butterfly order is fixed, so the result is bitwise reproducible.
template <int kGroup>
__device__ inline float group_sum(float value) {
  static_assert(kGroup > 0 && (kGroup & (kGroup - 1)) == 0, "group size must be a power of two");
  static_assert(kGroup <= kWaveSize, "a lane group cannot span waves");
  for (int offset = kGroup / 2; offset > 0; offset /= 2) value += shfl_xor(value, offset);
  return value;
}

// Sum over the lanes of a wave that agree modulo kStride (lanes kStride apart, and so on); every
// lane gets the sum of its class. The complement of group_sum: group_sum<S> then strided_sum<S>
// is the whole wave's sum. Fixed butterfly order: bitwise reproducible.
template <int kStride>
__device__ inline float strided_sum(float value) {
  static_assert(kStride > 0 && (kStride & (kStride - 1)) == 0, "stride must be a power of two");
  static_assert(kStride <= kWaveSize, "a stride cannot span waves");
  for (int offset = kStride; offset < kWaveSize; offset *= 2) value += shfl_xor(value, offset);
  return value;
}

// Sums kCount values over the whole (1-D) block; every thread gets the sums. scratch holds at least
// kCount * waves-per-block floats of shared memory (kMaxBlockWaves * kCount is always enough).
// @pre blockDim.x is a multiple of kWaveSize (every lane of every wave takes part).
// Contains __syncthreads(): call from all threads of the block. Deterministic: waves are summed
// in a fixed order.

template <int kCount>
__device__ inline void block_sum(float (&values)[kCount], float* scratch) {
  for (int i = 0; i < kCount; ++i) values[i] = group_sum<kWaveSize>(values[i]);
  const int wave = static_cast<int>(threadIdx.x) / kWaveSize;
  const int waves = (static_cast<int>(blockDim.x) + kWaveSize - 1) / kWaveSize;
  if (lane_id() == 0)
    for (int i = 0; i < kCount; ++i) scratch[wave * kCount + i] = values[i];
  __syncthreads();
  for (int i = 0; i < kCount; ++i) {
    float total = 0.0f;
    for (int w = 0; w < waves; ++w) total += scratch[w * kCount + i];
    values[i] = total;
  }
  __syncthreads();  // scratch may be reused right after
}

#endif

}  // namespace layoutcheck::wave
