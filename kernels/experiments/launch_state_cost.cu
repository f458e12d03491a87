// Experiment, not part of the build (kernels/PERF_NOTES.md, "Session 10", runs 78-84): does a
// plain CUDA program show the two launch states the library's processes show? There, graph
// kernels replay faster until the process has made about 8 launches or memsets outside any graph
// (kernels/experiments/bench_vs_tool/): native at batch 1 3.45 against 3.57 µs overlapped, 5.45
// against 5.80 serially. Here synthetic kernels, each with one property of the fused kernel (48
// blocks of 256 threads, static shared memory and a barrier, 64 KB of state read and written a
// block, a global atomic, 256 bytes of parameters, 2 or 32 KB of code, L2 prefetches before the
// wait) and, with LSC_WITH_NATIVE, the library's native kernel itself (on zeros), are timed the
// bench's way (a graph of 48 launches, each with its own buffers): fresh, then after 32
// launches, 16 memsets, 32 launches each checked with cudaGetLastError, and (LSC_WITH_LIBRARY)
// 32 of the library's own launch_counting_node. Buffers are set with copies, not memsets.
// Answer (runs 78-84): no state changes anything here, in any of the builds below; the native
// kernel reads 3.60-3.62 µs overlapped and 5.72-5.77 serially throughout, the library processes'
// settled figures.
//   nvcc -O3 -std=c++20 -arch=sm_90 -o /tmp/lsc kernels/experiments/launch_state_cost.cu
//   nvcc ... -cudart shared -o /tmp/lsc_shared kernels/experiments/launch_state_cost.cu
//   nvcc ... -cudart shared -shared -Xcompiler -fPIC -DLSC_LIBRARY -o /tmp/liblsc.so \
//     kernels/experiments/launch_state_cost.cu
//   echo 'extern "C" int launch_state_cost(); int main() { return launch_state_cost(); }' \
//     > /tmp/m.cpp && nvcc -cudart shared -o /tmp/lsc_so /tmp/m.cpp -L/tmp -llsc
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -cudart shared -DLSC_WITH_LIBRARY \
//     -DLSC_WITH_NATIVE -DLAYOUTCHECK_GPU_CUDA=1 -I. -Isrc -Ikernels -o /tmp/lsc_lib \
//     kernels/experiments/launch_state_cost.cu -Lbuild-gpu/kernels -llayoutcheck_gpu
//     (after scripts/gpu-check.sh's build step; LD_LIBRARY_PATH=build-gpu/kernels:build-gpu/src)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "graph_replays.h"
#ifdef LSC_WITH_LIBRARY
#include "kernels/launch_floor_kernel.h"
#endif
#ifdef LSC_WITH_NATIVE
#include "gdn_decode_fused.h"
#endif

constexpr int kLayers = 48, kBlocks = 48, kThreads = 256, kLoads = 16;  // 64 KB a block
constexpr long long kFloatsPerLayer = static_cast<long long>(kBlocks) * kThreads * kLoads * 4;

enum Mode : int {
  kOneThread = 1,  // a grid of one thread (the launch floor's kernel)
  kShared = 2,     // 11 KB of static shared memory, written, a barrier, read
  kStore = 4,      // each thread stores 16 float4
  kLoad = 8,       // each thread loads 16 float4 first (before the wait when overlapped)
  kAtomic = 16,    // thread 0 adds to a counter of its block
  kBigArgs = 32,   // 256 bytes of parameters
  kWait = 64,      // griddepcontrol.wait then launch_dependents (launched overlapped)
  kCode = 128,     // 2048 multiply-adds unrolled: 32 KB of code, as much as the fused kernel's
  kSomeCode = 256, // 128 of them: 2 KB
  kPrefetch = 512, // each thread prefetches into L2, before the wait, 16 lines it reads after
};

// n multiply-adds, four chains, each its own instruction in the code.
template <int kCount>
__device__ inline float unrolled_code(float x) {
  float a = x, b = x + 1.0f, c = x + 2.0f, d = x + 3.0f;
#pragma unroll
  for (int i = 0; i < kCount / 4; ++i) {
    asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f3C000000;" : "+f"(a));
    asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f3C000000;" : "+f"(b));
    asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f3C000000;" : "+f"(c));
    asm volatile("fma.rn.f32 %0, %0, 0f3F800001, 0f3C000000;" : "+f"(d));
  }
  return a + b + c + d;
}

struct SmallArgs {
  float* buffer;
  int* counters;
};
struct BigArgs {
  float* buffer;
  int* counters;
  float* unused[30];
};

template <int kMode, class Args>
__global__ void __launch_bounds__(kThreads) probe(Args args) {
  __shared__ float shared[11 * 1024 / 4];
  float4 r[kLoads];
  float4* mine = reinterpret_cast<float4*>(args.buffer) + blockIdx.x * kThreads * kLoads;
  if constexpr (kMode & kLoad) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) r[i] = mine[i * kThreads + threadIdx.x];
  }
  if constexpr (kMode & kPrefetch) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i)
      asm volatile("prefetch.global.L2 [%0];" ::"l"(mine + i * kThreads + threadIdx.x));
  }
  if constexpr (kMode & kWait) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;");
  }
  if constexpr (kMode & kOneThread) {
    args.counters[0] += 1;
    return;
  }
  int arrived = 0;
  if constexpr (kMode & kAtomic)
    if (threadIdx.x == 0) arrived = atomicAdd(args.counters + blockIdx.x, 1);
  float scale = 1.0f;
  if constexpr (kMode & kShared) {
    for (int i = threadIdx.x; i < 11 * 1024 / 4; i += kThreads) shared[i] = static_cast<float>(i);
    __syncthreads();
    scale = shared[(threadIdx.x * 7) % (11 * 1024 / 4)] * 1e-9f + 1.0f;
  }
  if constexpr (kMode & kCode) scale += unrolled_code<2048>(scale) * 1e-30f;
  if constexpr (kMode & kSomeCode) scale += unrolled_code<128>(scale) * 1e-30f;
  if constexpr (kMode & (kCode | kSomeCode))
    if (scale == 12345.0f) args.counters[blockIdx.x] = 1;  // never: keeps the code
  if constexpr (kMode & kPrefetch) {  // the prefetched lines read after the wait
#pragma unroll
    for (int i = 0; i < kLoads; ++i) r[i] = mine[i * kThreads + threadIdx.x];
  }
  if constexpr (kMode & kStore) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      float4 v = (kMode & (kLoad | kPrefetch)) ? r[i] : make_float4(1.0f, 2.0f, 3.0f, 4.0f);
      v.x *= scale;
      mine[i * kThreads + threadIdx.x] = v;
    }
  }
  if constexpr (kMode & kAtomic)
    if (threadIdx.x == 0 && arrived < 0) args.counters[blockIdx.x] = 0;  // never: keeps the atomic
}

struct Layer {
  float* buffer;
  int* counters;
};

#ifdef LSC_WITH_NATIVE
// The library's native fused kernel as the bench launches it at batch 1 overlapped (whole-early),
// or serially (whole-deferred), on 48 layers of zeros, each with its own buffers and counters.
namespace native {
using namespace layoutcheck;
using namespace layoutcheck::kernels;
constexpr long long H = 16, HV = 48, K = 128, V = 128, W = 4;
constexpr long long kQkvzRow = 2 * H * K + 2 * HV * V, kChannels = 2 * H * K + HV * V;
using Early = LoadsBeforeWait<StateTile<StateHkv, 128, 128, 16>>;
using Deferred = LoadsAfterStaging<StateTile<StateHkv, 128, 128, 16>>;

template <class T>
T* zeros(long long n) {
  T* device = nullptr;
  const std::vector<T> host(static_cast<std::size_t>(n), T{});
  CK(cudaMalloc(&device, n * sizeof(T)));
  CK(cudaMemcpy(device, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

std::vector<GdnDecodeArgs> make_layers() {
  std::vector<GdnDecodeArgs> layers;
  for (int i = 0; i < kLayers; ++i) {
    GdnDecodeArgs args{};
    args.qkvz = zeros<unsigned short>(kQkvzRow);
    args.ba = zeros<unsigned short>(2 * HV);
    args.conv_state = zeros<unsigned short>(kChannels * (W - 1));
    args.state = zeros<float>(HV * K * V);
    args.out = zeros<unsigned short>(HV * V);
    args.conv_weight = zeros<unsigned short>(kChannels * W);
    args.A_log = zeros<float>(HV);
    args.dt_bias = zeros<float>(HV);
    args.norm_weight = zeros<unsigned short>(V);
    args.sync_counter_count = fused_sync_counters(1, H, HV);
    args.sync_counters = zeros<int>(args.sync_counter_count);
    args.workspace_floats = fused_workspace_floats(1, HV, V);
    args.workspace = zeros<float>(args.workspace_floats);
    args.batch = 1, args.H = H, args.HV = HV, args.K = K, args.V = V, args.W = W;
    args.qkvz_row_stride = kQkvzRow, args.ba_row_stride = 2 * HV, args.state_row_stride = HV * K * V;
    layers.push_back(args);
  }
  return layers;
}

double time_graph(const std::vector<Layer>&, cudaStream_t stream, bool overlapped) {
  static const std::vector<GdnDecodeArgs> layers = make_layers();
  cudaGraph_t graph;
  CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (const GdnDecodeArgs& args : layers) {
    cudaLaunchConfig_t config{};
    config.gridDim = head_block_grid(args, 1);
    config.blockDim = dim3(256);
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = overlapped ? 1 : 0;
    if (overlapped)
      CK(cudaLaunchKernelEx(&config, gdn_decode_fused_fast<FlatLayout, Early, 128, 128, 4>, args));
    else
      CK(cudaLaunchKernelEx(&config, gdn_decode_fused_fast<FlatLayout, Deferred, 128, 128, 4>,
                            args));
  }
  CK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  std::vector<double> us = replay_us_per_layer(exec, stream, 10, 100, kLayers);
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}
}  // namespace native
#endif

template <int kMode>
void launch(const Layer& layer, cudaStream_t stream, bool overlapped) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3((kMode & kOneThread) ? 1 : kBlocks);
  config.blockDim = dim3((kMode & kOneThread) ? 1 : kThreads);
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = overlapped ? 1 : 0;
  if constexpr (kMode & kBigArgs) {
    BigArgs args{layer.buffer, layer.counters, {}};
    if (overlapped)
      CK(cudaLaunchKernelEx(&config, probe<kMode | kWait, BigArgs>, args));
    else
      CK(cudaLaunchKernelEx(&config, probe<kMode, BigArgs>, args));
  } else {
    SmallArgs args{layer.buffer, layer.counters};
    if (overlapped)
      CK(cudaLaunchKernelEx(&config, probe<kMode | kWait, SmallArgs>, args));
    else
      CK(cudaLaunchKernelEx(&config, probe<kMode, SmallArgs>, args));
  }
}

template <int kMode>
double time_graph(const std::vector<Layer>& layers, cudaStream_t stream, bool overlapped) {
  cudaGraph_t graph;
  CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (const Layer& layer : layers) launch<kMode>(layer, stream, overlapped);
  CK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  std::vector<double> us = replay_us_per_layer(exec, stream, 10, 100, kLayers);
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// Fresh; after 32 launches; after 16 memsets more; after 32 launches each followed by
// cudaGetLastError (as the library checks each launch); with LSC_WITH_LIBRARY, after 32 of the
// library's own launch_counting_node (its launch floor's kernel, from its module).
constexpr int kStates = 5;
struct Row {
  const char* name;
  double (*time)(const std::vector<Layer>&, cudaStream_t, bool);
  double us[kStates][2];  // [state][serial, overlapped]
};

__global__ void settle_kernel(int* counter) { *counter += 1; }

extern "C" int launch_state_cost() {
  std::vector<Layer> layers;
  const std::vector<float> zeros(static_cast<std::size_t>(kFloatsPerLayer), 0.0f);
  const std::vector<int> zero_counters(kBlocks, 0);
  for (int i = 0; i < kLayers; ++i) {
    Layer layer{};
    CK(cudaMalloc(&layer.buffer, kFloatsPerLayer * sizeof(float)));
    CK(cudaMalloc(&layer.counters, kBlocks * sizeof(int)));
    CK(cudaMemcpy(layer.buffer, zeros.data(), kFloatsPerLayer * sizeof(float),
                  cudaMemcpyHostToDevice));
    CK(cudaMemcpy(layer.counters, zero_counters.data(), kBlocks * sizeof(int),
                  cudaMemcpyHostToDevice));
    layers.push_back(layer);
  }
  cudaStream_t stream;
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  std::vector<Row> rows = {
      {"1 thread (the launch floor's kernel)", time_graph<kOneThread>},
      {"48 x 256, nothing", time_graph<0>},
      {"48 x 256, shared memory and a barrier", time_graph<kShared>},
      {"48 x 256, 256 B of parameters", time_graph<kBigArgs>},
      {"48 x 256, an atomic a block", time_graph<kAtomic>},
      {"48 x 256, 64 KB stored a block", time_graph<kStore>},
      {"48 x 256, 64 KB loaded, then stored", time_graph<kLoad | kStore>},
      {"48 x 256, all of the above", time_graph<kShared | kBigArgs | kAtomic | kLoad | kStore>},
      {"48 x 256, 128 multiply-adds (2 KB of code)", time_graph<kSomeCode>},
      {"48 x 256, 2048 multiply-adds (32 KB of code)", time_graph<kCode>},
      {"48 x 256, 64 KB prefetched, read after the wait, stored", time_graph<kPrefetch | kStore>},
#ifdef LSC_WITH_NATIVE
      {"the library's native kernel (whole-early / whole-deferred)", native::time_graph},
#endif
  };
  int* counter = nullptr;
  CK(cudaMalloc(&counter, sizeof(int)));
  for (int state = 0; state < kStates; ++state) {
    if (state == 1)
      for (int i = 0; i < 32; ++i) settle_kernel<<<1, 1, 0, stream>>>(counter);
    if (state == 2)
      for (int i = 0; i < 16; ++i) CK(cudaMemset(counter, 0, sizeof(int)));
    if (state == 3)
      for (int i = 0; i < 32; ++i) {
        settle_kernel<<<1, 1, 0, stream>>>(counter);
        CK(cudaGetLastError());
      }
#ifdef LSC_WITH_LIBRARY
    if (state == 4)
      for (int i = 0; i < 32; ++i)
        layoutcheck::kernels::launch_counting_node(reinterpret_cast<unsigned*>(counter), stream);
#endif
    CK(cudaDeviceSynchronize());
    for (Row& row : rows)
      for (int overlapped = 0; overlapped < 2; ++overlapped)
        row.us[state][overlapped] = row.time(layers, stream, overlapped != 0);
  }

  std::printf("\nµs per launch, median of 100 replays of a graph of %d launches\n", kLayers);
  for (int overlapped = 0; overlapped < 2; ++overlapped) {
    std::printf("\n| %s | fresh | + 32 launches | + 16 memsets | + 32 checked launches | + 32 of "
                "the library's launches |\n|---|---|---|---|---|---|\n",
                overlapped ? "overlapped" : "serial");
    for (const Row& row : rows) {
      std::printf("| %s |", row.name);
      for (int state = 0; state < kStates; ++state) std::printf(" %.3f |", row.us[state][overlapped]);
      std::printf("\n");
    }
  }
  return 0;
}

#ifndef LSC_LIBRARY
int main() { return launch_state_cost(); }
#endif
