// Experiment, not part of the build (kernels/PERF_NOTES.md, "Session 5: batch 1 phase by
// phase"): the native fused kernel at batch 1, timed the bench's way (48 layers, each with its own
// buffers, in one CUDA graph), with thread 0 of every block reading the SM's cycle counter at the
// points phase_marks.patch (regenerated for v18) marks with LC_PHASE_MARK(0..11). The whole-head
// kernel leaves the workspace unused (it combines no norm across blocks), so each layer gets its
// own and the marks go there: a store by thread 0, no atomic and no load on the kernel's path.
// Prints, per mark, the median and spread over all blocks of the time since the block started, the
// kernel's span per layer from %globaltimer, and the graph's time per layer. NVIDIA only, like
// state_pass_floor.cu:
//   mkdir /tmp/m && cp -r kernels src /tmp/m && patch -d /tmp/m -p1 <
//     kernels/experiments/phase_marks.patch
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -DLAYOUTCHECK_GPU_CUDA=1
//     -I/tmp/m -I/tmp/m/kernels -I/tmp/m/src -o /tmp/phase_timeline
//     kernels/experiments/phase_timeline.cu && /tmp/phase_timeline
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"
#include "device_copy.h"
#include "graph_replays.h"

constexpr int kMarks = 12;
constexpr int kSlots = kMarks + 2;  // the cycle counter at each mark, globaltimer at 0 and last

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
      if (n == 0) slots[kMarks] = nanoseconds_now();                                           \
      if (n == kMarks - 1) slots[kMarks + 1] = nanoseconds_now();                              \
    }                                                                                          \
  } while (false)

#include "gdn_decode_fused.h"

using namespace layoutcheck;
using namespace layoutcheck::kernels;

constexpr long long H = 16, HV = 48, K = 128, V = 128, W = 4, kBatch = 1, kLayers = 48;
constexpr long long kQkvzRow = 2 * H * K + 2 * HV * V, kBaRow = 2 * HV;
constexpr long long kChannels = 2 * H * K + HV * V, kStateRow = HV * K * V;
// The walk choose_fused_split picks at batch 1 (v15); StateTile<StateHkv, 128, 128, 16> alone is
// the whole head with the state loads beside the staging (run 30's table).
using Walk = LoadsAfterStaging<StateTile<StateHkv, 128, 128, 16>>;

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

int main() {
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
  cudaGraph_t graph;
  CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (const GdnDecodeArgs& args : layers)
    gdn_decode_fused_fast<FlatLayout, Walk, 128, 128, 4><<<grid, Walk::kThreads, 0, stream>>>(args);
  CK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));

  for (int i = 0; i < 10; ++i) CK(cudaGraphLaunch(exec, stream));
  // The marks of the last replay stay in the workspaces.
  const std::vector<double> per_layer_us = replay_us_per_layer(exec, stream, 0, 40, kLayers);

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
      ns_total += static_cast<double>(at(layer, block, kMarks + 1) - at(layer, block, kMarks));
    }
  const double ns_per_cycle = ns_total / cycles_total;
  std::printf("%lld layers x %lld blocks of %d threads; %.3f ns a cycle (%.2f GHz)\n", kLayers,
              blocks, Walk::kThreads, ns_per_cycle, 1.0 / ns_per_cycle);
  std::printf("graph: %.2f us a layer with the marks (median of 40 replays)\n",
              percentile(per_layer_us, 0.5));

  const char* names[kMarks] = {"0 start (dims, head from the grid)",
                               "1 staging, gate (and, undeferred, state) loads issued",
                               "2 thread 0's staging back, conv done, deferred state loads issued",
                               "3 block barrier: every thread's staging back",
                               "4 gates (exp, softplus, sigmoid)",
                               "5 l2norm of q, k",
                               "6 project done (state back, reduced, delta rule)",
                               "7 norm: sum of o^2 over the head",
                               "8 norm: 1 / rms",
                               "9 norm: out stored",
                               "10 state update stores issued",
                               "11 end (handshakes, Q/K conv-state shift)"};
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

  // Per layer: first block start -> last block end, and last end -> the next layer's first start.
  std::vector<double> spans, gaps, skew;
  for (int layer = 0; layer < kLayers; ++layer) {
    unsigned long long first = ~0ull, last_start = 0, last = 0;
    for (long long block = 0; block < blocks; ++block) {
      first = std::min(first, at(layer, block, kMarks));
      last_start = std::max(last_start, at(layer, block, kMarks));
      last = std::max(last, at(layer, block, kMarks + 1));
    }
    spans.push_back(static_cast<double>(last - first));
    skew.push_back(static_cast<double>(last_start - first));
    if (layer + 1 < kLayers) {
      unsigned long long next_first = ~0ull;
      for (long long block = 0; block < blocks; ++block)
        next_first = std::min(next_first, at(layer + 1, block, kMarks));
      gaps.push_back(static_cast<double>(next_first) - static_cast<double>(last));
    }
  }
  std::printf(
      "\nper layer (%%globaltimer): first block start -> last block end %.0f ns (p10 %.0f, p90 "
      "%.0f); the last block starts %.0f ns after the first; last end -> next layer's first "
      "start %.0f ns (p10 %.0f, p90 %.0f)\n",
      percentile(spans, 0.5), percentile(spans, 0.1), percentile(spans, 0.9), percentile(skew, 0.5),
      percentile(gaps, 0.5), percentile(gaps, 0.1), percentile(gaps, 0.9));
  return 0;
}
