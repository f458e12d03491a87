// Experiment, not part of the build (kernels/PERF_NOTES.md, "What a batch-1 kernel can reach"):
// what the state traffic alone costs per layer on this GPU, measured the way the bench measures
// (48 layers in one CUDA graph, each with its own state, median of 40 replays), by how many blocks
// share a head, and what a cross-block combine adds: a thread block cluster with distributed
// shared memory (a blocking cluster barrier, or each block pushing its partial into every
// block's shared memory behind a split arrive/wait barrier that the state stores hide), the
// cluster launch alone, a global-memory fence + atomic + last-block read (the fused kernel's
// halves and quarters), an early atomic, and programmatic dependent launch. The kernel reads each
// head's 128 x 128 fp32 slice, reduces it over the block, scales it and writes it back: no conv,
// no norm, no gates, so its time is below anything the fused step can take with the same split.
// NVIDIA only (clusters and dependent launch have no gfx9 equivalent), so it stays out of the
// HIP-spelled code base:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/state_pass_floor
//   kernels/experiments/state_pass_floor.cu /tmp/state_pass_floor
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"
#include "graph_replays.h"

namespace cg = cooperative_groups;

constexpr int K = 128, V = 128, HV = 48;
enum : int {
  kReduce = 1,
  kCluster = 2,
  kGlobal = 4,
  kAtomic = 8,
  kPdlWaitFirst = 16,
  kPdlWaitLate = 32,
  kClusterOnly = 64,
  kPush = 128
};
constexpr int kClustered = kCluster | kClusterOnly | kPush;

__device__ float block_sum(float x, float* sh) {
  for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
  const int w = threadIdx.x / 32, nw = blockDim.x / 32;
  __syncthreads();
  if ((threadIdx.x & 31) == 0) sh[w] = x;
  __syncthreads();
  float t = 0;
  for (int i = 0; i < nw; ++i) t += sh[i];
  return t;
}

template <int kSplit, int kThreads, int kMode>
__global__ void __launch_bounds__(kThreads) pass(float* state, float* ws, int* counters) {
  constexpr int kCols = V / kSplit;
  constexpr int kQuads = kCols / 4;
  constexpr int kRowStep = kThreads / kQuads;
  constexpr int kLoads = K / kRowStep;
  __shared__ float sh[32];
  __shared__ float partial;
  __shared__ int flag;
  __shared__ float pushed[16];
  // Push: a split barrier. Phase 1 (arrive at start, wait before the first remote store) says every
  // block of the cluster runs; phase 2 (arrive after the pushes, wait after the state stores)
  // publishes the partials, so the barrier's latency hides behind the stores.
  if constexpr (kMode & kPush) asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  if constexpr (kMode & kPdlWaitFirst) asm volatile("griddepcontrol.wait;" ::: "memory");
  const int head = blockIdx.y;
  float* s = state + static_cast<size_t>(head) * K * V;
  const int col = blockIdx.x * kCols + 4 * (threadIdx.x % kQuads);
  const int row0 = threadIdx.x / kQuads;
  float4 r[kLoads];
#pragma unroll
  for (int i = 0; i < kLoads; ++i)
    r[i] = *reinterpret_cast<float4*>(s + (row0 + i * kRowStep) * V + col);
  if constexpr (kMode & kPdlWaitLate) asm volatile("griddepcontrol.wait;" ::: "memory");
  if constexpr (kMode & (kPdlWaitFirst | kPdlWaitLate))
    asm volatile("griddepcontrol.launch_dependents;");
  int arrived = 0;
  if constexpr (kMode & kAtomic)
    if (threadIdx.x == 0) arrived = atomicAdd(counters + head * 2 + 1, 1);
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kLoads; ++i) sum += r[i].x * r[i].x + r[i].y + r[i].z + r[i].w;
  float total = sum;
  if constexpr (kMode & kReduce) total = block_sum(sum, sh);
  if constexpr (kMode & kCluster) {
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) partial = total;
    cluster.sync();
    float t = 0;
    for (int rank = 0; rank < kSplit; ++rank) t += *cluster.map_shared_rank(&partial, rank);
    total = t;
  }
  if constexpr (kMode & kPush) {
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x < kSplit)
      *cluster.map_shared_rank(&pushed[cluster.block_rank()], threadIdx.x) = total;
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  }
  if constexpr (kMode & kGlobal) {
    if (threadIdx.x == 0) {
      ws[head * kSplit + blockIdx.x] = total;
      __threadfence();
      flag = atomicAdd(counters + head * 2, 1);
    }
    __syncthreads();
  }
  const float scale = 0.5f + 1e-30f * total;
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    float4 u = r[i];
    u.x *= scale, u.y *= scale, u.z *= scale, u.w *= scale;
    *reinterpret_cast<float4*>(s + (row0 + i * kRowStep) * V + col) = u;
  }
  if constexpr (kMode & kGlobal) {
    if (flag == kSplit - 1) {
      if (threadIdx.x == 0) counters[head * 2] = 0;
      __threadfence();
      const volatile float* p = ws + head * kSplit;
      float t = 0;
      for (int i = 0; i < kSplit; ++i) t += p[i];
      if (threadIdx.x < 32) ws[100000 + head * 32 + threadIdx.x] = t;
    }
  }
  if constexpr (kMode & kAtomic) {
    if (threadIdx.x == 0) flag = arrived;
    __syncthreads();
    if (flag == kSplit - 1 && threadIdx.x == 0) counters[head * 2 + 1] = 0;
  }
  if constexpr (kMode & kCluster) cg::this_cluster().sync();
  if constexpr (kMode & kPush) {
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    float t = 0;
    for (int i = 0; i < kSplit; ++i) t += pushed[i];
    if (threadIdx.x < 32) ws[100000 + head * 32 + threadIdx.x] = t;
  }
}

template <int kSplit, int kThreads, int kMode>
void launch(float* state, float* ws, int* counters, int heads, cudaStream_t st) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(kSplit, heads, 1);
  config.blockDim = dim3(kThreads);
  config.stream = st;
  cudaLaunchAttribute attrs[2];
  int n = 0;
  if constexpr (kMode & kClustered) {
    attrs[n].id = cudaLaunchAttributeClusterDimension;
    attrs[n].val.clusterDim.x = kSplit, attrs[n].val.clusterDim.y = 1,
    attrs[n].val.clusterDim.z = 1;
    ++n;
  }
  if constexpr (kMode & (kPdlWaitFirst | kPdlWaitLate)) {
    attrs[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attrs[n].val.programmaticStreamSerializationAllowed = 1;
    ++n;
  }
  config.attrs = attrs;
  config.numAttrs = n;
  CK(cudaLaunchKernelEx(&config, pass<kSplit, kThreads, kMode>, state, ws, counters));
}

struct Layers {
  std::vector<float*> state;
  float* ws;
  int* counters;
};

template <int kSplit, int kThreads, int kMode>
double time_it(Layers& L, int heads, const char* name) {
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
  for (float* s : L.state) launch<kSplit, kThreads, kMode>(s, L.ws, L.counters, heads, st);
  CK(cudaStreamEndCapture(st, &graph));
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<double> t =
      replay_us_per_layer(exec, st, 5, 40, static_cast<int>(L.state.size()));
  std::sort(t.begin(), t.end());
  std::printf("| %-34s | %4d | %7.2f | %7.2f |\n", name, heads / HV, t[t.size() / 2],
              t[t.size() / 10]);
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  CK(cudaStreamDestroy(st));
  return t[t.size() / 2];
}

#define T(S, TH, M, NAME) time_it<S, TH, M>(L, heads, NAME)

int main() {
  const int layers = 48;
  std::printf("| variant | batch | us/layer median | p10 |\n|---|---|---|---|\n");
  for (int batch : {1, 64}) {
    const int heads = batch * HV;
    Layers L;
    for (int i = 0; i < layers; ++i) {
      float* s;
      CK(cudaMalloc(&s, static_cast<size_t>(heads) * K * V * 4));
      CK(cudaMemset(s, 0, static_cast<size_t>(heads) * K * V * 4));
      L.state.push_back(s);
    }
    CK(cudaMalloc(&L.ws, (200000 + heads * 64) * 4));
    CK(cudaMalloc(&L.counters, heads * 8 * 4));
    CK(cudaMemset(L.counters, 0, heads * 8 * 4));
    T(1, 256, 0, "whole 256x16 plain");
    T(1, 256, kReduce, "whole 256x16 reduce");
    T(1, 512, kReduce, "whole 512x8 reduce");
    T(2, 256, kReduce, "halves 256x8 reduce");
    T(4, 256, kReduce, "quarters 256x4 reduce");
    T(4, 128, kReduce, "quarters 128x8 reduce");
    T(8, 128, kReduce, "eighths 128x4 reduce");
    T(8, 64, kReduce, "eighths 64x8 reduce");
    T(16, 64, kReduce, "sixteenths 64x4 reduce");
    T(2, 256, kReduce | kCluster, "halves cluster");
    T(4, 256, kReduce | kCluster, "quarters 256 cluster");
    T(4, 128, kReduce | kCluster, "quarters 128 cluster");
    T(8, 128, kReduce | kCluster, "eighths 128 cluster");
    T(8, 64, kReduce | kCluster, "eighths 64 cluster");
    T(4, 128, kReduce | kGlobal, "quarters 128 global handshake");
    T(8, 128, kReduce | kClusterOnly, "eighths 128 cluster launch only");
    T(4, 128, kReduce | kClusterOnly, "quarters 128 cluster launch only");
    T(8, 128, kReduce | kPush, "eighths 128 push split barrier");
    T(8, 64, kReduce | kPush, "eighths 64 push split barrier");
    T(4, 128, kReduce | kPush, "quarters 128 push split barrier");
    T(4, 128, kReduce | kCluster | kAtomic, "quarters 128 cluster+atomic");
    T(1, 256, kReduce | kAtomic, "whole 256 atomic");
    T(1, 256, kReduce | kPdlWaitFirst, "whole 256 pdl wait-first");
    T(4, 128, kReduce | kCluster | kPdlWaitFirst, "quarters cluster pdl wait-first");
    T(4, 128, kReduce | kCluster | kPdlWaitLate, "quarters cluster pdl wait-late");
    for (float* s : L.state) CK(cudaFree(s));
    CK(cudaFree(L.ws));
    CK(cudaFree(L.counters));
  }
  return 0;
}
