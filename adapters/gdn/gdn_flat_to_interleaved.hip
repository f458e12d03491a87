// Hand-written adapters: Qwen3.5 flat rows -> Qwen3-Next interleaved rows, the conversion an
// upstream kernel needs in front of it (design §1 step 3). The interleaved qkvz row of key head h
// is four runs, each contiguous in the flat row:
//   [q_h (K) | k_h (K) | v of heads hG..hG+G-1 (G*V) | z of the same heads (G*V)]
// so the copy is a run copy, 16 bytes (8 bf16) per thread when every run start is 8-aligned, else
// one element per thread. The bit-plane probes check that this is exactly the permutation between
// contracts/gdn/qwen3_5.qkvz.yaml and qwen3_next.qkvz.yaml.
#include <cstdint>

#include "kernels/gdn/gdn_kernels.h"
#include "layoutcheck/gpu/check.h"

namespace layoutcheck::kernels {
namespace {

constexpr int kAdapterThreads = 256;
constexpr int kVectorElements = 8;  // bf16 per 16-byte vector

struct QkvzRuns {
  long long H, K, GV;                        // GV = G*V, the length of a group's v (and z) run
  long long flat_q, flat_k, flat_v, flat_z;  // where each field starts in the flat row
  long long group_stride;                    // 2K + 2GV in the interleaved row
};

// Element e of key head h's interleaved group -> (flat offset, interleaved offset).
__device__ inline void group_element(const QkvzRuns& runs, long long h, long long e,
                                     long long& flat, long long& interleaved) {
  interleaved = h * runs.group_stride + e;
  if (e < runs.K)
    flat = runs.flat_q + h * runs.K + e;
  else if (e < 2 * runs.K)
    flat = runs.flat_k + h * runs.K + (e - runs.K);
  else if (e < 2 * runs.K + runs.GV)
    flat = runs.flat_v + h * runs.GV + (e - 2 * runs.K);
  else
    flat = runs.flat_z + h * runs.GV + (e - 2 * runs.K - runs.GV);
}

// grid (ceil(group elements / (threads * per_thread)), H, batch)
template <bool kVector>
__global__ void __launch_bounds__(kAdapterThreads)
    adapt_qkvz_flat_to_interleaved(const unsigned short* flat, long long flat_row_stride,
                                   unsigned short* interleaved, long long interleaved_row_stride,
                                   QkvzRuns runs) {
  await_previous_kernel();
  const long long h = blockIdx.y;
  const long long b = blockIdx.z;
  const long long step = kVector ? kVectorElements : 1;
  const long long e = (static_cast<long long>(blockIdx.x) * kAdapterThreads + threadIdx.x) * step;
  if (e >= runs.group_stride) return;
  long long source, destination;
  group_element(runs, h, e, source, destination);
  const unsigned short* from = flat + b * flat_row_stride + source;
  unsigned short* to = interleaved + b * interleaved_row_stride + destination;
  if constexpr (kVector)
    *reinterpret_cast<uint4*>(to) = *reinterpret_cast<const uint4*>(from);
  else
    *to = *from;
}

// One thread per value head: b and a move to the key head's group [b(G) a(G)].
__global__ void __launch_bounds__(kAdapterThreads)
    adapt_ba_flat_to_interleaved(const unsigned short* flat, long long flat_row_stride,
                                 unsigned short* interleaved, long long interleaved_row_stride,
                                 long long batch, long long HV, long long G) {
  await_previous_kernel();
  const long long i = static_cast<long long>(blockIdx.x) * kAdapterThreads + threadIdx.x;
  if (i >= batch * HV) return;
  const long long b = i / HV, hv = i % HV;
  const long long h = hv / G, r = hv % G;
  const unsigned short* from = flat + b * flat_row_stride;
  unsigned short* to = interleaved + b * interleaved_row_stride + h * 2 * G;
  to[r] = from[hv];
  to[G + r] = from[HV + hv];
}

bool aligned(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % (kVectorElements * sizeof(unsigned short)) ==
         0;
}

}  // namespace

void launch_adapt_qkvz_flat_to_interleaved(const unsigned short* flat, long long flat_row_stride,
                                           unsigned short* interleaved,
                                           long long interleaved_row_stride, long long batch,
                                           long long H, long long HV, long long K, long long V,
                                           hipStream_t stream, LaunchOrder launch) {
  if (batch <= 0 || H <= 0 || HV <= 0 || HV % H != 0 || K <= 0 || V <= 0 || H > 65535 ||
      batch > 65535)
    throw gpu::GpuError("qkvz adapter: invalid sizes");
  QkvzRuns runs;
  runs.H = H;
  runs.K = K;
  runs.GV = (HV / H) * V;
  runs.flat_q = 0;
  runs.flat_k = H * K;
  runs.flat_v = 2 * H * K;
  runs.flat_z = 2 * H * K + HV * V;
  runs.group_stride = 2 * K + 2 * runs.GV;
  // Vector copies need every run to start and end on an 8-element boundary in both rows.
  const bool vector = K % kVectorElements == 0 && runs.GV % kVectorElements == 0 &&
                      flat_row_stride % kVectorElements == 0 &&
                      interleaved_row_stride % kVectorElements == 0 && aligned(flat) &&
                      aligned(interleaved);
  const long long per_block = kAdapterThreads * (vector ? kVectorElements : 1);
  const dim3 grid(static_cast<unsigned>((runs.group_stride + per_block - 1) / per_block),
                  static_cast<unsigned>(H), static_cast<unsigned>(batch));
  launch_kernel(
      launch, vector ? adapt_qkvz_flat_to_interleaved<true> : adapt_qkvz_flat_to_interleaved<false>,
      grid, kAdapterThreads, 0, stream, flat, flat_row_stride, interleaved, interleaved_row_stride,
      runs);
  LC_GPU_CHECK_LAUNCH("adapt_qkvz_flat_to_interleaved");
}

void launch_adapt_ba_flat_to_interleaved(const unsigned short* flat, long long flat_row_stride,
                                         unsigned short* interleaved,
                                         long long interleaved_row_stride, long long batch,
                                         long long H, long long HV, hipStream_t stream,
                                         LaunchOrder launch) {
  if (batch <= 0 || H <= 0 || HV <= 0 || HV % H != 0)
    throw gpu::GpuError("ba adapter: invalid sizes");
  const long long items = batch * HV;
  launch_kernel(launch, adapt_ba_flat_to_interleaved,
                static_cast<unsigned>((items + kAdapterThreads - 1) / kAdapterThreads),
                kAdapterThreads, 0, stream, flat, flat_row_stride, interleaved,
                interleaved_row_stride, batch, HV, HV / H);
  LC_GPU_CHECK_LAUNCH("adapt_ba_flat_to_interleaved");
}

}  // namespace layoutcheck::kernels
