// Experiment, not part of the build (kernels/PERF_NOTES.md, "Session 10", runs 78-84): does a
// plain CUDA program show the two launch states the library's processes show? There, graph
// kernels replay faster until the process has made about 8 launches or memsets outside any graph
// (kernels/experiments/bench_vs_tool/): native at batch 1 3.45 against 3.57 µs overlapped, 5.45
// against 5.80 serially. Here synthetic kernels, each with one property of the fused kernel (48
// blocks of 256 threads, static shared memory and a barrier, 64 KB of state read and written a
// block, a global atomic, 256 bytes of parameters, 2 or 32 KB of code, L2 prefetches before the
// wait) and, with LSC_WITH_NATIVE, the library's native kernel itself (on zeros, and on random
// values), are timed the
// bench's way (a graph of 48 launches, each with its own buffers): fresh, then after 32
// launches, 16 memsets, 32 launches each checked with cudaGetLastError, and (LSC_WITH_LIBRARY)
// 32 of the library's own launch_counting_node. Buffers are set with copies, not memsets.
// Answer (runs 78-87): no state changes anything here, in any of the builds below. The native
// kernel reads 3.43-3.47 µs overlapped and 5.42-5.49 serially on random values throughout (the
// library processes' fresh figures), 3.60-3.64 and 5.65-5.73 on zeros. Why (Session 11,
// launch_state_bisect/): the slower state needs device-to-device copies as well as launches
// outside any graph, and this program makes no copy.
//   nvcc -O3 -std=c++20 -arch=sm_90 -o /tmp/lsc kernels/experiments/launch_state_cost.cu
//   nvcc ... -cudart shared -o /tmp/lsc_shared kernels/experiments/launch_state_cost.cu
//   nvcc ... -cudart shared -shared -Xcompiler -fPIC -DLSC_LIBRARY -o /tmp/liblsc.so \
//     kernels/experiments/launch_state_cost.cu
//   echo 'extern "C" int launch_state_cost(); int main() { return launch_state_cost(); }' \
//     > /tmp/m.cpp && nvcc -cudart shared -o /tmp/lsc_so /tmp/m.cpp -L/tmp -llsc
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -DLSC_WITH_NATIVE \
//     -DLAYOUTCHECK_GPU_CUDA=1 -I. -Isrc -Ikernels -o /tmp/lsc_native \
//     kernels/experiments/launch_state_cost.cu      (run 85: the native rows alone)
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -cudart shared -DLSC_WITH_LIBRARY \
//     -DLSC_WITH_NATIVE -DLAYOUTCHECK_GPU_CUDA=1 -I. -Isrc -Ikernels -o /tmp/lsc_lib \
//     kernels/experiments/launch_state_cost.cu -Lbuild-gpu/kernels -llayoutcheck_gpu
//     (after scripts/gpu-check.sh's build step; LD_LIBRARY_PATH=build-gpu/kernels:build-gpu/src)
//   for t in nonblocking-kernels legacy-kernels blocking-kernels big-memsets; do
//     /tmp/lsc_native $t; done              (run 86: native, fresh and after one kind of work)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "graph_replays.h"
#ifdef LSC_WITH_LIBRARY
#include "kernels/gdn_kernels.h"
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

// A launch on `stream`, overlapped (programmatic dependent launch) or serial; `attribute` must
// outlive the launch.
cudaLaunchConfig_t launch_config(dim3 grid, dim3 block, cudaStream_t stream, bool overlapped,
                                 cudaLaunchAttribute& attribute) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.stream = stream;
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = overlapped ? 1 : 0;
  return config;
}

// Median µs per launch of a graph of whatever enqueue(stream) launches (kLayers of them).
template <class Enqueue>
double time_captured(cudaStream_t stream, Enqueue enqueue) {
  const CapturedGraph graph(stream, enqueue);
  std::vector<double> us = replay_us_per_layer(graph.exec(), stream, 10, 100, kLayers);
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

#ifdef LSC_WITH_NATIVE
// The library's native fused kernel as the bench launches it at batch 1 overlapped (whole-early),
// or serially (whole-deferred), on 48 layers of zeros or of random values (as
// split_head_step.cu's), each with its own buffers and counters.
namespace native {
using namespace layoutcheck;
using namespace layoutcheck::kernels;
constexpr long long H = 16, HV = 48, K = 128, V = 128, W = 4;
constexpr long long kQkvzRow = 2 * H * K + 2 * HV * V, kChannels = 2 * H * K + HV * V;
using Early = LoadsBeforeWait<StateTile<StateHkv, 128, 128, 16>>;
using Deferred = LoadsAfterStaging<StateTile<StateHkv, 128, 128, 16>>;

bool random_values = false;  // else zeros

// n values uniform in [-scale, scale] (bf16 bit patterns for unsigned short), or zeros.
template <class T>
T* upload(long long n, float scale) {
  static unsigned seed = 12345u;
  std::vector<T> host(static_cast<std::size_t>(n), T{});
  if (random_values)
    for (T& value : host) {
      seed = seed * 1664525u + 1013904223u;
      const float x = scale * (static_cast<float>(seed >> 8) / 8388608.0f - 1.0f);
      if constexpr (sizeof(T) == 2) value = float_to_bf16(x);
      else value = static_cast<T>(x);
    }
  T* device = nullptr;
  CK(cudaMalloc(&device, n * sizeof(T)));
  CK(cudaMemcpy(device, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}
template <class T>
T* zeros(long long n) {
  const bool was = random_values;
  random_values = false;
  T* device = upload<T>(n, 0.0f);
  random_values = was;
  return device;
}

std::vector<GdnDecodeArgs> make_layers() {
  std::vector<GdnDecodeArgs> layers;
  for (int i = 0; i < kLayers; ++i) {
    GdnDecodeArgs args{};
    args.qkvz = upload<unsigned short>(kQkvzRow, 1.0f);
    args.ba = upload<unsigned short>(2 * HV, 1.0f);
    args.conv_state = upload<unsigned short>(kChannels * (W - 1), 1.0f);
    args.state = upload<float>(HV * K * V, 0.05f);
    args.out = zeros<unsigned short>(HV * V);
    args.conv_weight = upload<unsigned short>(kChannels * W, 0.5f);
    args.A_log = upload<float>(HV, 1.0f);
    args.dt_bias = upload<float>(HV, 1.0f);
    args.norm_weight = upload<unsigned short>(V, 1.0f);
    args.sync_counter_count = fused_sync_counters(1, H, HV);
    args.sync_counters = zeros<int>(args.sync_counter_count);
    args.workspace_floats = fused_workspace_floats(1, HV, V);
    args.workspace = zeros<float>(args.workspace_floats);
    args.batch = 1, args.H = H, args.HV = HV, args.K = K, args.V = V, args.W = W;
    args.qkvz_row_stride = kQkvzRow, args.ba_row_stride = 2 * HV;
    args.state_row_stride = HV * K * V;
    layers.push_back(args);
  }
  return layers;
}

#ifdef LSC_WITH_LIBRARY
// The same kernel, the same buffers, launched by the library's own launch function (its copy of
// the kernel, in liblayoutcheck_gpu's module): the first step of PERF_NOTES "Next experiments" 1,
// prepared in session 10 and not yet run (the device time ran out).
double time_library_launch(const std::vector<Layer>&, cudaStream_t stream, bool overlapped) {
  static const std::vector<GdnDecodeArgs> layers = [] {
    random_values = true;
    return make_layers();
  }();
  return time_captured(stream, [&](cudaStream_t s) {
    for (const GdnDecodeArgs& args : layers)
      launch_gdn_decode_fused(QkvzLayout::flat, StateOrder::hkv, args,
                              overlapped ? StateSplit::whole_early : StateSplit::whole_deferred, s,
                              overlapped ? LaunchOrder::overlapped : LaunchOrder::serial);
  });
}
#endif

template <bool kRandom>
double time_graph(const std::vector<Layer>&, cudaStream_t stream, bool overlapped) {
  static const std::vector<GdnDecodeArgs> layers = [] {
    random_values = kRandom;
    return make_layers();
  }();
  return time_captured(stream, [&](cudaStream_t s) {
    for (const GdnDecodeArgs& args : layers) {
      cudaLaunchAttribute attribute{};
      const cudaLaunchConfig_t config =
          launch_config(head_block_grid(args, 1), dim3(256), s, overlapped, attribute);
      if (overlapped)
        CK(cudaLaunchKernelEx(&config, gdn_decode_fused_fast<FlatLayout, Early, 128, 128, 4>,
                              args));
      else
        CK(cudaLaunchKernelEx(&config, gdn_decode_fused_fast<FlatLayout, Deferred, 128, 128, 4>,
                              args));
    }
  });
}
}  // namespace native
#endif

template <int kMode>
void launch(const Layer& layer, cudaStream_t stream, bool overlapped) {
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config =
      launch_config(dim3((kMode & kOneThread) ? 1 : kBlocks),
                    dim3((kMode & kOneThread) ? 1 : kThreads), stream, overlapped, attribute);
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
  return time_captured(stream, [&](cudaStream_t s) {
    for (const Layer& layer : layers) launch<kMode>(layer, s, overlapped);
  });
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
      {"the library's native kernel on zeros (whole-early / whole-deferred)",
       native::time_graph<false>},
      {"the library's native kernel on random values", native::time_graph<true>},
#ifdef LSC_WITH_LIBRARY
      {"the same, launched by the library", native::time_library_launch},
#endif
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
      for (int state = 0; state < kStates; ++state)
        std::printf(" %.3f |", row.us[state][overlapped]);
      std::printf("\n");
    }
  }
  return 0;
}

#ifdef LSC_WITH_NATIVE
// One trigger per process, since a state once entered lasts: native on random values, fresh and
// after 16 of `trigger` (run 86): kernels on a non-blocking stream, on the legacy default stream,
// on a blocking stream, or 1 MiB memsets.
int one_trigger(const char* trigger) {
  cudaStream_t stream, blocking;
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CK(cudaStreamCreate(&blocking));
  int* buffer = nullptr;
  CK(cudaMalloc(&buffer, 1 << 20));
  const std::string what = trigger;
  double us[2][2];
  for (int state = 0; state < 2; ++state) {
    if (state == 1)
      for (int i = 0; i < 16; ++i) {
        if (what == "nonblocking-kernels") settle_kernel<<<1, 1, 0, stream>>>(buffer);
        if (what == "legacy-kernels") settle_kernel<<<1, 1>>>(buffer);
        if (what == "blocking-kernels") settle_kernel<<<1, 1, 0, blocking>>>(buffer);
        if (what == "big-memsets") CK(cudaMemset(buffer, 0, 1 << 20));
      }
    CK(cudaDeviceSynchronize());
    for (int overlapped = 0; overlapped < 2; ++overlapped)
      us[state][overlapped] = native::time_graph<true>({}, stream, overlapped != 0);
  }
  std::printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", trigger, us[0][0], us[1][0], us[0][1],
              us[1][1]);
  return 0;
}
#endif

#ifndef LSC_LIBRARY
int main(int argc, char** argv) {
#ifdef LSC_WITH_NATIVE
  if (argc > 1) return one_trigger(argv[1]);
#endif
  (void)argc, (void)argv;
  return launch_state_cost();
}
#endif
