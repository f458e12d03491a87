// Experiment, not part of the build (kernels/PERF_NOTES.md, "Session 6: what is left at batch 1"):
// how long a block's first loads take to come back in the bench's setting, 48 layers in one CUDA
// graph, each with its own buffers, 48 blocks of 256 threads a layer (batch 1 at 16/48 heads).
// The phase timeline of the native kernel puts 1.8 µs between issuing its staging loads and
// thread 0 having them, even when the state loads wait for the staging (v15). This kernel issues
// only what the question needs: thread 0 of each block loads `probes` floats on distinct lines
// of a source buffer and reads the cycle counter before and after; then, as the fused kernel
// does, the block reads its 64 KB state slice and writes it back (so L2 and the TLBs see the
// layer's traffic). Sources: each layer's own small buffer (cold: 48 layers of state pass
// through L2 between its uses), one buffer shared by every layer (warm), or the block's own
// state slice. Prints the median probe latency over all blocks of the last replay and the
// graph's time per layer. NVIDIA only:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/first_access_latency
//     kernels/experiments/first_access_latency.cu && /tmp/first_access_latency
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "graph_replays.h"

constexpr int kLayers = 48, kBlocks = 48, kThreads = 256;
constexpr int kSliceFloats = 128 * 128;          // one head's fp32 state
constexpr int kSmallFloats = 64 * 1024;          // 256 KB: 48 blocks x 16 probes x 32 floats
enum Source { kOwnSmall, kSharedSmall, kOwnState };
enum Order { kProbeAlone, kProbeThenState, kStateWithProbe };

__device__ unsigned long long cycles_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__global__ void __launch_bounds__(kThreads)
    probe(const float* source, float* state, int probes, int order, long long* cycles) {
  float4* slice = reinterpret_cast<float4*>(state + blockIdx.x * kSliceFloats);
  float4 s[16];
  if (order == kStateWithProbe)
    for (int i = 0; i < 16; ++i) s[i] = slice[threadIdx.x + i * kThreads];
  if (threadIdx.x == 0) {
    const unsigned long long start = cycles_now();
    float sum = 0.0f;
    for (int j = 0; j < probes; ++j) sum += source[(blockIdx.x * 16 + j) * 32];
    asm volatile("" ::"f"(sum));  // the counter is read after every probe is back
    const unsigned long long end = cycles_now();
    cycles[blockIdx.x] = static_cast<long long>(end - start) + (sum == 12345.0f);
  }
  if (order == kProbeAlone) return;
  __syncthreads();
  if (order == kProbeThenState)
    for (int i = 0; i < 16; ++i) s[i] = slice[threadIdx.x + i * kThreads];
  for (int i = 0; i < 16; ++i) {
    s[i].x += 1.0f;
    slice[threadIdx.x + i * kThreads] = s[i];
  }
}

int main() {
  int clock_khz = 0;
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  const double ns_per_cycle = 1e6 / clock_khz;
  std::vector<float*> small(kLayers), state(kLayers);
  std::vector<long long*> cycles(kLayers);
  float* shared_small = nullptr;
  CK(cudaMalloc(&shared_small, kSmallFloats * sizeof(float)));
  CK(cudaMemset(shared_small, 0, kSmallFloats * sizeof(float)));
  for (int l = 0; l < kLayers; ++l) {
    CK(cudaMalloc(&small[l], kSmallFloats * sizeof(float)));
    CK(cudaMalloc(&state[l], size_t{kBlocks} * kSliceFloats * sizeof(float)));
    CK(cudaMalloc(&cycles[l], kBlocks * sizeof(long long)));
    CK(cudaMemset(small[l], 0, kSmallFloats * sizeof(float)));
    CK(cudaMemset(state[l], 0, size_t{kBlocks} * kSliceFloats * sizeof(float)));
  }
  cudaStream_t stream;
  CK(cudaStreamCreate(&stream));

  std::printf("| source | order | probes | probe latency ns, median [p10-p90] | graph us/layer |\n");
  std::printf("|---|---|---|---|---|\n");
  const char* source_names[] = {"own small buffer", "shared small buffer", "own state slice"};
  const char* order_names[] = {"probe alone", "probe, then state", "state with probe"};
  for (int source : {kOwnSmall, kSharedSmall, kOwnState})
    for (int order : {kProbeAlone, kProbeThenState, kStateWithProbe})
      for (int probes : {1, 16}) {
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
        for (int l = 0; l < kLayers; ++l) {
          const float* from = source == kOwnSmall      ? small[l]
                              : source == kSharedSmall ? shared_small
                                                       : state[l];
          probe<<<kBlocks, kThreads, 0, stream>>>(from, state[l], probes, order, cycles[l]);
        }
        CK(cudaStreamEndCapture(stream, &graph));
        CK(cudaGraphInstantiate(&exec, graph, 0));
        std::vector<double> times = replay_us_per_layer(exec, stream, 5, 25, kLayers);
        std::vector<double> ns;
        for (int l = 0; l < kLayers; ++l) {
          std::vector<long long> host(kBlocks);
          CK(cudaMemcpy(host.data(), cycles[l], kBlocks * sizeof(long long),
                        cudaMemcpyDeviceToHost));
          for (long long c : host) ns.push_back(c * ns_per_cycle);
        }
        std::sort(ns.begin(), ns.end());
        std::sort(times.begin(), times.end());
        std::printf("| %s | %s | %d | %.0f [%.0f-%.0f] | %.2f |\n", source_names[source],
                    order_names[order], probes, ns[ns.size() / 2], ns[ns.size() / 10],
                    ns[ns.size() * 9 / 10], times[times.size() / 2]);
        CK(cudaGraphExecDestroy(exec));
        CK(cudaGraphDestroy(graph));
      }
  return 0;
}
