// Experiment, not part of the build (kernels/PERF_NOTES.md, "Session 5: batch 1 phase by
// phase", "Session 12"): the native fused kernel at batch 1, timed the bench's way (48 layers, each
// with its own buffers, in one CUDA graph, after the bench's settling), with thread 0 of every
// block reading the SM's cycle counter at the points phase_marks.patch (regenerated for v19 in
// session 12) marks with LC_PHASE_MARK(0..11). The whole-head kernel leaves the workspace unused
// (it combines no norm across blocks), so each layer gets its own and the marks go there: a store
// by thread 0, no atomic and no load on the kernel's path. Prints, per mark, the median and spread
// over all blocks of the time since the block started, the kernel's span per layer from
// %globaltimer (also read when the wait returns), and the graph's time per layer. Argument:
// `deferred` (default: whole-deferred, launched serially) or `early` (whole-early, launched
// overlapped), the walks choose_fused_split picks at batch 1. NVIDIA only, like
// state_pass_floor.cu:
//   mkdir /tmp/m && cp -r kernels src /tmp/m && patch -d /tmp/m -p1 <
//     kernels/experiments/phase_marks.patch
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -DLAYOUTCHECK_GPU_CUDA=1
//     -I/tmp/m -I/tmp/m/kernels -I/tmp/m/src -o /tmp/phase_timeline
//     kernels/experiments/phase_timeline.cu && /tmp/phase_timeline early
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_check.h"
#include "device_copy.h"
#include "graph_replays.h"

constexpr int kMarks = 12;
constexpr int kWaitMark = 2;  // the mark right after await_previous_kernel()
// The cycle counter at each mark; globaltimer at mark 0, at the wait's mark and at the last.
constexpr int kSlots = kMarks + 3;
constexpr int kStartNs = kMarks, kWaitNs = kMarks + 1, kEndNs = kMarks + 2;

__device__ inline unsigned long long cycles_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}
__device__ inline unsigned long long nanoseconds_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// Called inside the kernel, where `args` is the launch's GdnDecodeArgs.
#define LC_PHASE_MARK(n)                                                                       \
  do {                                                                                         \
    if (threadIdx.x == 0) {                                                                    \
      auto* slots = reinterpret_cast<unsigned long long*>(args.workspace) +                    \
                    (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)) * kSlots; \
      slots[n] = cycles_now();                                                                 \
      if (n == 0) slots[kStartNs] = nanoseconds_now();                                         \
      if (n == kWaitMark) slots[kWaitNs] = nanoseconds_now();                                  \
      if (n == kMarks - 1) slots[kEndNs] = nanoseconds_now();                                  \
    }                                                                                          \
  } while (false)

#include "gdn_decode_fused.h"

using namespace layoutcheck;
using namespace layoutcheck::kernels;

constexpr long long H = 16, HV = 48, K = 128, V = 128, W = 4, kBatch = 1, kLayers = 48;
constexpr long long kQkvzRow = 2 * H * K + 2 * HV * V, kBaRow = 2 * HV;
constexpr long long kChannels = 2 * H * K + HV * V, kStateRow = HV * K * V;
// The walks choose_fused_split picks at batch 1: serially whole-deferred (v15), overlapped
// whole-early (v16), both with streaming state accesses (v19; run 104 timed v18's, without).
using WholeHeadHkv = StateTile<StateHkv, 128, 128, 16, StateCaching::streaming>;
constexpr int kThreads = WholeHeadHkv::kThreads;

// The bench's settling (gpu_bench/launch_state.h): copies between device buffers, then small
// launches outside any graph, so the graph runs in the state an application's process is in.
__global__ void settling_kernel(int* counter) { atomicAdd(counter, 1); }
void settle(cudaStream_t stream) {
  constexpr size_t kCopyBytes = 1 << 20;
  char* source = nullptr;
  char* target = nullptr;
  CK(cudaMalloc(&source, kCopyBytes));
  CK(cudaMalloc(&target, 64 * kCopyBytes));
  CK(cudaMemset(source, 1, kCopyBytes));
  for (int i = 0; i < 64; ++i)
    CK(cudaMemcpyAsync(target + i * kCopyBytes, source, kCopyBytes, cudaMemcpyDeviceToDevice,
                       stream));
  CK(cudaStreamSynchronize(stream));
  int* counter = device_copy(std::vector<int>(1));
  for (int i = 0; i < 32; ++i) settling_kernel<<<1, 1, 0, stream>>>(counter);
  CK(cudaStreamSynchronize(stream));
}

unsigned next_random() {
  static unsigned state = 12345u;
  state = state * 1664525u + 1013904223u;
  return state;
}
float uniform(float scale) {
  return scale * (static_cast<float>(next_random() >> 8) / 8388608.0f - 1.0f);
}

std::vector<unsigned short> random_bf16(long long n, float scale) {
  std::vector<unsigned short> values(static_cast<std::size_t>(n));
  for (auto& value : values) value = float_to_bf16(uniform(scale));
  return values;
}
std::vector<float> random_floats(long long n, float scale) {
  std::vector<float> values(static_cast<std::size_t>(n));
  for (auto& value : values) value = uniform(scale);
  return values;
}

// Each layer its own buffers, as in the bench, and its own workspace for the marks.
GdnDecodeArgs make_layer(int* counters, long long blocks) {
  GdnDecodeArgs args{};
  args.qkvz = device_copy(random_bf16(kBatch * kQkvzRow, 1.0f));
  args.ba = device_copy(random_bf16(kBatch * kBaRow, 1.0f));
  args.conv_state = device_copy(random_bf16(kBatch * kChannels * (W - 1), 1.0f));
  args.state = device_copy(random_floats(kBatch * kStateRow, 0.05f));
  args.out = device_copy(std::vector<unsigned short>(kBatch * HV * V));
  args.conv_weight = device_copy(random_bf16(kChannels * W, 0.5f));
  args.A_log = device_copy(random_floats(HV, 1.0f));
  args.dt_bias = device_copy(random_floats(HV, 1.0f));
  args.norm_weight = device_copy(random_bf16(V, 1.0f));
  args.sync_counters = counters;
  args.sync_counter_count = fused_sync_counters(kBatch, H, HV);
  args.workspace_floats = std::max(fused_workspace_floats(kBatch, HV, V), 2 * blocks * kSlots);
  args.workspace = device_copy(std::vector<float>(static_cast<std::size_t>(args.workspace_floats)));
  args.batch = kBatch, args.H = H, args.HV = HV, args.K = K, args.V = V, args.W = W;
  args.qkvz_row_stride = kQkvzRow, args.ba_row_stride = kBaRow, args.state_row_stride = kStateRow;
  return args;
}

double percentile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(fraction * (values.size() - 1))];
}

int main(int argc, char** argv) {
  const bool early = argc > 1 && std::strcmp(argv[1], "early") == 0;
  if (argc > 2 || (argc == 2 && !early && std::strcmp(argv[1], "deferred") != 0)) {
    std::printf("usage: %s [deferred|early]\n", argv[0]);
    return 2;
  }
  const LaunchOrder order = early ? LaunchOrder::overlapped : LaunchOrder::serial;
  auto* kernel = early ? gdn_decode_fused_fast<FlatLayout, LoadsBeforeWait<WholeHeadHkv>, 128, 128, 4>
                       : gdn_decode_fused_fast<FlatLayout, LoadsAfterStaging<WholeHeadHkv>, 128,
                                               128, 4>;
  int* counters = nullptr;
  CK(cudaMalloc(&counters, fused_sync_counters(kBatch, H, HV) * sizeof(int)));
  CK(cudaMemset(counters, 0, fused_sync_counters(kBatch, H, HV) * sizeof(int)));
  GdnDecodeArgs shape{};
  shape.batch = kBatch, shape.H = H, shape.HV = HV;
  const dim3 grid = head_block_grid(shape, 1);
  const long long blocks = static_cast<long long>(grid.x) * grid.y * grid.z;
  std::vector<GdnDecodeArgs> layers;
  for (int layer = 0; layer < kLayers; ++layer) layers.push_back(make_layer(counters, blocks));

  cudaStream_t stream;
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  settle(stream);
  const CapturedGraph graph(stream, [&](cudaStream_t s) {
    for (const GdnDecodeArgs& args : layers) {
      launch_kernel(order, kernel, grid, kThreads, 0, s, args);
      CK(cudaGetLastError());
    }
  });
  // The marks of the last replay stay in the workspaces.
  const std::vector<double> per_layer_us = replay_us_per_layer(graph.exec(), stream, 10, 40, kLayers);

  std::vector<std::vector<unsigned long long>> slots;  // [layer][block * kSlots + slot]
  for (const GdnDecodeArgs& args : layers) {
    std::vector<unsigned long long> layer(static_cast<std::size_t>(blocks * kSlots));
    CK(cudaMemcpy(layer.data(), args.workspace, layer.size() * sizeof(unsigned long long),
                  cudaMemcpyDeviceToHost));
    slots.push_back(std::move(layer));
  }
  auto at = [&](int layer, long long block, int slot) {
    return slots[layer][static_cast<std::size_t>(block * kSlots + slot)];
  };

  // Cycles to ns from each block's own start-to-end interval (both clocks read there).
  double cycles_total = 0, ns_total = 0;
  for (int layer = 0; layer < kLayers; ++layer)
    for (long long block = 0; block < blocks; ++block) {
      cycles_total += static_cast<double>(at(layer, block, kMarks - 1) - at(layer, block, 0));
      ns_total += static_cast<double>(at(layer, block, kEndNs) - at(layer, block, kStartNs));
    }
  const double ns_per_cycle = ns_total / cycles_total;
  std::printf("%s, %s launches; %lld layers x %lld blocks of %d threads; %.3f ns a cycle (%.2f GHz)\n",
              early ? "whole-early" : "whole-deferred", early ? "overlapped" : "serial", kLayers,
              blocks, kThreads, ns_per_cycle, 1.0 / ns_per_cycle);
  std::printf("graph: %.2f us a layer with the marks (median of 40 replays)\n",
              percentile(per_layer_us, 0.5));

  const char* names[kMarks] = {"0 start (dims, head from the grid)",
                               "1 early loads issued (whole-early: weights, own staging, state)",
                               "2 the wait for the previous kernel returned",
                               "3 the step's staging and gate loads issued",
                               "4 thread 0's staging back, conv done (deferred: state issued)",
                               "5 block barrier: every thread's staging back",
                               "6 gates (and l2norm_qk where the walk does not fold it)",
                               "7 project done (state back, reduced, l2norm, delta rule)",
                               "8 gated RMSNorm: out stored",
                               "9 state update stores issued",
                               "10 shared work's barrier (handshakes)",
                               "11 end (Q/K conv-state shift)"};
  std::printf("\n| mark | ns since block start, median | p10 | p90 | step (median) |\n");
  std::printf("|---|---|---|---|---|\n");
  double previous = 0;
  for (int m = 0; m < kMarks; ++m) {
    std::vector<double> since;
    for (int layer = 0; layer < kLayers; ++layer)
      for (long long block = 0; block < blocks; ++block)
        since.push_back(static_cast<double>(at(layer, block, m) - at(layer, block, 0)) *
                        ns_per_cycle);
    const double median = percentile(since, 0.5);
    std::printf("| %s | %.0f | %.0f | %.0f | %.0f |\n", names[m], median, percentile(since, 0.1),
                percentile(since, 0.9), median - previous);
    previous = median;
  }

  // Per layer, from %globaltimer: the wait's release to the last block's end (the step's chain),
  // the spread of the releases, and what separates one layer's end from the next layer's
  // release and first start (serially the start follows the end; overlapped it leads it).
  struct Times {
    unsigned long long first_start = ~0ull, first_wait = ~0ull, last_wait = 0, last_end = 0;
  };
  std::vector<Times> times(kLayers);
  for (int layer = 0; layer < kLayers; ++layer)
    for (long long block = 0; block < blocks; ++block) {
      Times& t = times[layer];
      t.first_start = std::min(t.first_start, at(layer, block, kStartNs));
      t.first_wait = std::min(t.first_wait, at(layer, block, kWaitNs));
      t.last_wait = std::max(t.last_wait, at(layer, block, kWaitNs));
      t.last_end = std::max(t.last_end, at(layer, block, kEndNs));
    }
  auto signed_ns = [](unsigned long long later, unsigned long long earlier) {
    return static_cast<double>(later) - static_cast<double>(earlier);
  };
  std::vector<double> chain, release_spread, release_after_end, start_before_end;
  for (int layer = 0; layer < kLayers; ++layer) {
    chain.push_back(signed_ns(times[layer].last_end, times[layer].first_wait));
    release_spread.push_back(signed_ns(times[layer].last_wait, times[layer].first_wait));
    if (layer + 1 < kLayers) {
      release_after_end.push_back(signed_ns(times[layer + 1].first_wait, times[layer].last_end));
      start_before_end.push_back(signed_ns(times[layer].last_end, times[layer + 1].first_start));
    }
  }
  auto row = [](const char* name, const std::vector<double>& values) {
    std::printf("| %s | %.0f | %.0f | %.0f |\n", name, percentile(values, 0.5),
                percentile(values, 0.1), percentile(values, 0.9));
  };
  std::printf("\n| per layer (%%globaltimer), ns | median | p10 | p90 |\n|---|---|---|---|\n");
  row("first wait release -> last block end", chain);
  row("first -> last wait release", release_spread);
  row("last block end -> next layer's first wait release", release_after_end);
  row("next layer's first block start -> this layer's last end", start_before_end);
  return 0;
}
