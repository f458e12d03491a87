// Experiment, not part of the build (kernels/PERF_NOTES.md, "Session 11"): which piece of a
// layoutcheck process makes its graph kernels slower once it has made about 8 launches or memsets
// outside any graph (Session 10: native at batch 1, 3.45 -> 3.57 µs overlapped, 5.42 -> 5.80
// serially), when a plain CUDA program (launch_state_cost.cu) never slows down? (The answer,
// below: no piece of the library; copies and launches together, which that program never made.)
//
// One process per configuration, since the slower state, once entered, lasts. The process times
// the native path at batch 1 (48 layers, a graph per launch order) the timing tool's way, fresh,
// then after `trigger`, and prints one table row. Each flag swaps one of the tool's pieces for
// the plain program's:
//   own-workspaces   a workspace (sync counters, floats) per layer instead of one for all
//   compiled-kernel  the native kernel compiled into this program, launched here with the same
//                    arguments, instead of the library's launch_gdn_decode_fused
//   raw-graph        cudaStreamBeginCapture (global mode) and cudaGraphLaunch here instead of the
//                    library's Graph (thread-local capture), timed with raw-timer's loop
//   raw-timer        the events and loop here instead of time_graph_replays
//   raw-stream       a stream made here instead of the library's Stream
//   own-buffers      each layer's buffers allocated and uploaded here (launch_state_cost.cu's
//                    values) instead of GdnDeviceLayer's
// and two change the order:
//   trigger-first    the trigger before the layers are allocated (as the settled tool does)
//   new-stack        after the trigger, a second stack of layers is allocated and timed too
// and five add what the tool does besides (run 91):
//   copy-bandwidth   measure_copy_bandwidth on 1 GiB first
//   other-paths      baseline and adapter+upstream timed the tool's way before each native timing
//   hot              the tool's hot graph (one serial launch of the first layer) after each
//   library-workspace  native's workspace from GdnPathLauncher::make_workspace (a memset)
//   path-streams     a new Stream for each timing, as the tool makes one per path
// Run 91: copy-bandwidth is the piece. Taken apart (run 92): big-alloc (2 x 1 GiB allocated and
// freed), big-memsets (and each set once), big-copies (and 12 copies, no memsets),
// copy-bandwidth-kept (memsets and copies, never freed).
// Triggers: none, library (settle_launch_state: 32 of its one-thread launches in runs 89-101; 64
// device-to-device copies and then the launches since d7db3a6, run 102), own (32
// one-thread launches of a kernel compiled in here), memsets (16 cudaMemset of 4 bytes),
// eager-64 / eager-1 (32 decode steps of the native path at batch 64 / 1 outside any graph, as
// a serving process runs work it does not capture; run 97); two-streams (16 one-thread launches
// on the timing stream and 16 on another), other-stream (32 on another only; runs 99, 101); A+B:
// trigger A, then B.
//
// Answer (runs 89-102, PERF_NOTES "Session 11"): none of the library's pieces. The H200 slows
// (3.40-3.46 -> 3.51-3.59 µs overlapped, 5.33-5.45 -> 5.66-5.86 serially) once a process has made
// device-to-device copies (4 or more of 1 GiB, 1 or 2 do not; 1024 of 1 MiB or 65536 of 64 KiB,
// 2 or 3 of 1 MiB do not; 64 of 1 MiB in run 102) or 12 1 GiB copy kernels, and about 8 small
// launches outside any graph, in either order. Not by 12 GiB moved by
// 32 eager decode steps, not by copies or launches alone; SM clock (1972-1980 MHz), DRAM and L2
// load latency (about 313 / 146 ns) unchanged. Launches on two streams slowed it in run 99 and
// did not in run 101; CUDA_DEVICE_MAX_CONNECTIONS=1 kept 4 copies + launches fast in run 99, not
// 12 x 1 GiB copies in run 101, nor the timing tool (run 100). Past that, the driver's or the
// GPU's front end: not found further.
//
//   OUT=/tmp/gc GPU_CHECK_STEPS="build" bash scripts/gpu-check.sh
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -cudart shared \
//     -DLAYOUTCHECK_GPU_CUDA=1 -I. -Isrc -Ikernels -o /tmp/bisect \
//     kernels/experiments/launch_state_bisect/launch_state_bisect.cu -Lbuild-gpu/kernels -Lbuild-gpu/src \
//     -llayoutcheck_gpu -llayoutcheck
//   LD_LIBRARY_PATH=build-gpu/kernels:build-gpu/src /tmp/bisect library raw-graph
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../cuda_check.h"
#include "../device_copy.h"
#include "gdn_decode_fused.h"
#include "../graph_replays.h"
#include "kernels/gdn_kernels.h"
#include "layoutcheck/gdn/random_problem.h"
#include "layoutcheck/gdn/standard_layouts.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/gdn_paths.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/gpu_bench/copy_bandwidth.h"
#include "layoutcheck/gpu_bench/gdn_path_timing.h"
#include "layoutcheck/gpu_bench/graph_timing.h"
#include "layoutcheck/gpu_bench/launch_state.h"

namespace {

using namespace layoutcheck;
using namespace layoutcheck::gpu;
using kernels::LaunchOrder;

constexpr int kLayers = 48, kReplays = 100, kWarmup = 3;
std::set<std::string> flags;
bool has(const char* flag) { return flags.count(flag) != 0; }

__global__ void own_settle_kernel(unsigned* counter) { *counter += 1; }

// One layer's kernel arguments over buffers and a workspace, and what owns them.
struct LayerArgs {
  std::vector<GdnDecodeArgs> args;
  GdnLayerStack stack;
  std::vector<std::unique_ptr<GdnPathWorkspace>> workspaces;
};

// Workspaces zeroed by copies, not memsets (memsets are one of the triggers).
std::unique_ptr<GdnPathWorkspace> zeroed_workspace(const GdnShape& shape) {
  auto workspace = std::make_unique<GdnPathWorkspace>();
  workspace->shape = shape;
  workspace->batch = 1;
  workspace->sync_counters = DeviceBuffer<int>(std::vector<int>(
      static_cast<std::size_t>(kernels::gdn_sync_counters(1, shape.H, shape.HV)), 0));
  workspace->floats = DeviceBuffer<float>(std::vector<float>(
      static_cast<std::size_t>(kernels::gdn_workspace_floats(1, shape.H, shape.HV, shape.K,
                                                             shape.V)),
      0.0f));
  return workspace;
}

LayerArgs make_layers(const GdnStepInputs& inputs) {
  LayerArgs layers;
  layers.stack = make_layer_stack(inputs, kLayers);
  const int workspaces = has("own-workspaces") ? kLayers : 1;
  for (int i = 0; i < workspaces; ++i)
    layers.workspaces.push_back(
        has("library-workspace")
            ? GdnPathLauncher(GdnPath::native).make_workspace(inputs.shape, 1)  // a memset
            : zeroed_workspace(inputs.shape));
  for (int i = 0; i < kLayers; ++i) {
    GdnDecodeArgs args = layers.stack[i]->args();
    if (has("own-buffers")) {  // the same values, in buffers allocated here
      args.qkvz = device_copy(inputs.qkvz);
      args.ba = device_copy(inputs.ba);
      args.conv_state = device_copy(inputs.conv_state);
      args.state = device_copy(inputs.state);
      args.out = device_copy(std::vector<bf16_bits>(static_cast<std::size_t>(
          inputs.shape.HV * inputs.shape.V)));
    }
    const GdnPathWorkspace& workspace = *layers.workspaces[has("own-workspaces") ? i : 0];
    args.sync_counters = const_cast<int*>(workspace.sync_counters.data());
    args.sync_counter_count = static_cast<long long>(workspace.sync_counters.size());
    args.workspace = const_cast<float*>(workspace.floats.data());
    args.workspace_floats = static_cast<long long>(workspace.floats.size());
    layers.args.push_back(args);
  }
  return layers;
}

void enqueue(const LayerArgs& layers, cudaStream_t stream, LaunchOrder launch) {
  using namespace layoutcheck::kernels;
  using State = StateTile<StateHkv, 128, 128, 16>;
  for (const GdnDecodeArgs& args : layers.args) {
    if (!has("compiled-kernel")) {
      launch_gdn_decode_fused(QkvzLayout::flat, StateOrder::hkv, args,
                              launch == LaunchOrder::overlapped ? StateSplit::whole_early
                                                                : StateSplit::whole_deferred,
                              stream, launch);
      continue;
    }
    cudaLaunchAttribute overlap{};
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = head_block_grid(args, 1);
    config.blockDim = dim3(256);
    config.stream = stream;
    config.attrs = &overlap;
    config.numAttrs = launch == LaunchOrder::overlapped ? 1 : 0;
    if (launch == LaunchOrder::overlapped)
      CK(cudaLaunchKernelEx(&config,
                            gdn_decode_fused_fast<FlatLayout, LoadsBeforeWait<State>, 128, 128, 4>,
                            args));
    else
      CK(cudaLaunchKernelEx(
          &config, gdn_decode_fused_fast<FlatLayout, LoadsAfterStaging<State>, 128, 128, 4>, args));
  }
}

double median(std::vector<double> us) {
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

double time_library_graph(const LayerArgs& layers, const Stream& library_stream,
                          LaunchOrder launch);

// The tool's timing of another path over the same layers: its workspace (a memset), a stream of
// its own, the graph of all layers, then the hot graph.
void time_other_path(GdnPath path, const LayerArgs& layers, LaunchOrder launch) {
  GdnPathOptions options;
  options.launch = launch;
  const GdnPathLauncher launcher(path, options);
  auto workspace = launcher.make_workspace(layers.stack.front()->shape(), 1);
  CK(cudaDeviceSynchronize());
  const Stream stream(Stream::Kind::non_blocking);
  {
    const Graph graph(stream, [&](hipStream_t s) {
      for (auto& layer : layers.stack) launcher.enqueue(*layer, *workspace, s);
    });
    (void)time_graph_replays(graph, stream, kWarmup, kReplays, kLayers);
  }
  const Graph hot(stream, [&](hipStream_t s) {
    launcher.enqueue(*layers.stack.front(), *workspace, s, LaunchOrder::serial);
  });
  (void)time_graph_replays(hot, stream, kWarmup, kReplays, 1.0);
}

void enqueue_first_serially(const LayerArgs& layers, cudaStream_t stream) {
  kernels::launch_gdn_decode_fused(kernels::QkvzLayout::flat, StateOrder::hkv, layers.args.front(),
                                   kernels::StateSplit::whole_deferred, stream,
                                   LaunchOrder::serial);
}

double time_native(const LayerArgs& layers, const Stream& library_stream, cudaStream_t stream,
                   LaunchOrder launch) {
  if (has("raw-graph")) {
    const CapturedGraph graph(stream, [&](cudaStream_t s) { enqueue(layers, s, launch); });
    return median(replay_us_per_layer(graph.exec(), stream, kWarmup, kReplays, kLayers));
  }
  // The library's Graph needs the library's Stream; raw-stream applies to the raw graph only.
  const Stream path_stream(Stream::Kind::non_blocking);  // as the tool makes one per path
  const Stream& timed = has("path-streams") ? path_stream : library_stream;
  if (has("other-paths"))  // the tool times baseline and adapter+upstream before native
    for (GdnPath path : {GdnPath::baseline, GdnPath::adapter_upstream})
      time_other_path(path, layers, launch);
  const double us = time_library_graph(layers, timed, launch);
  if (has("hot")) {  // the tool's hot figure: one serial launch of the first layer
    const Graph hot(timed, [&](hipStream_t s) {
      enqueue_first_serially(layers, s);
    });
    (void)time_graph_replays(hot, timed, kWarmup, kReplays, 1.0);
  }
  return us;
}

double time_library_graph(const LayerArgs& layers, const Stream& library_stream,
                          LaunchOrder launch) {
  const Graph graph(library_stream, [&](hipStream_t s) { enqueue(layers, s, launch); });
  if (!has("raw-timer"))
    return median(time_graph_replays(graph, library_stream, kWarmup, kReplays, kLayers));
  return median(time_replays_per_layer([&] { graph.launch(library_stream); },
                                       library_stream.get(), kWarmup, kReplays, kLayers));
}

// The copy-bandwidth measurement taken apart (run 92): two 1 GiB buffers allocated and freed,
// with (big-memsets) each set once, with (big-copies) 12 copies from one to the other, or
// (copy-bandwidth-kept) both and never freed.
void big_buffers() {
  constexpr std::size_t kBytes = std::size_t{1} << 30;
  void *source = nullptr, *target = nullptr;
  CK(cudaMalloc(&source, kBytes));
  CK(cudaMalloc(&target, kBytes));
  const bool kept = has("copy-bandwidth-kept");
  if (has("big-memsets") || kept) {
    CK(cudaMemset(source, 0x5a, kBytes));
    CK(cudaMemset(target, 0, kBytes));
  }
  if (has("big-copies") || kept)
    for (int i = 0; i < 12; ++i)
      CK(cudaMemcpyAsync(target, source, kBytes, cudaMemcpyDeviceToDevice, nullptr));
  CK(cudaDeviceSynchronize());
  if (kept) return;
  CK(cudaFree(source));
  CK(cudaFree(target));
}

// d2d=BYTESxCOUNT (runs 93, 97-98): COUNT device-to-device cudaMemcpyAsync of BYTES on a blocking
// stream, buffers freed after; sm-copy: the same 1 GiB x 12 as a kernel of this program instead.
__global__ void copy_kernel(const float4* source, float4* target, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    target[i] = source[i];
}

// The SM clock, measured in a kernel: cycles counted against the global nanosecond timer over
// about a million cycles (run 94). Launched from a graph, so it is no launch outside one.
__global__ void clock_probe(double* mhz) {
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  long long c1 = c0;
  while (c1 - c0 < 1000000) c1 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  *mhz = static_cast<double>(c1 - c0) * 1e3 / static_cast<double>(t1 - t0);
}

double sm_clock_mhz(cudaStream_t stream) {
  double* device = nullptr;
  CK(cudaMalloc(&device, sizeof(double)));
  const CapturedGraph graph(stream, [&](cudaStream_t s) { clock_probe<<<1, 1, 0, s>>>(device); });
  std::vector<double> mhz;
  for (int i = 0; i < 5; ++i) {
    graph.launch(stream);
    CK(cudaStreamSynchronize(stream));
    double value = 0;
    CK(cudaMemcpy(&value, device, sizeof value, cudaMemcpyDeviceToHost));
    mhz.push_back(value);
  }
  CK(cudaFree(device));
  return median(mhz);
}

// Memory latency (runs 95-96): one thread follows kHops dependent loads of a chain spread at
// random over `span` bytes and reports ns per load: 512 MiB cold (DRAM: each sample a part of
// the chain not read before, no warm pass, after a kernel has read 256 MiB of another buffer in
// the same graph to push the chain out of the L2), or 1 MiB warm (the L2: each part read once
// first).
// The chain is set up by a kernel in a graph and chased from a graph, so neither is a launch
// outside one.
constexpr int kHops = 2048, kSamples = 5;
__global__ void chain_scatter(const unsigned* positions, unsigned* next) {
  for (int i = 0; i < kHops * kSamples; ++i)
    next[positions[i]] = positions[(i + 1) % (kHops * kSamples)];
}
__global__ void chain_chase(const unsigned* next, unsigned start, bool warm, double* ns_per_load,
                            unsigned* sink) {
  unsigned at = start;
  if (warm)
    for (int i = 0; i < kHops; ++i) at = next[at];
  at = start;
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (int i = 0; i < kHops; ++i) at = __ldcg(next + at);
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  *ns_per_load = static_cast<double>(t1 - t0) / kHops;
  *sink = at;
}

__global__ void evict_l2(const float4* buffer, std::size_t count, float* sink) {
  float sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    sum += buffer[i].x;
  if (sum == 12345.0f) *sink = sum;  // never: keeps the loads
}

// Captures body into a graph and runs it once: work that is no launch outside a graph.
template <class Body>
void run_in_graph(cudaStream_t stream, Body body) {
  CapturedGraph(stream, body).launch(stream);
  CK(cudaStreamSynchronize(stream));
}

double chase_ns(cudaStream_t stream, std::size_t span) {
  static std::vector<std::pair<std::size_t, unsigned*>> chains;  // made once per span
  unsigned* next = nullptr;
  for (auto& [bytes, chain] : chains)
    if (bytes == span) next = chain;
  unsigned seed = 7u;
  std::vector<unsigned> positions(kHops * kSamples);
  for (unsigned& position : positions) {
    seed = seed * 1664525u + 1013904223u;
    position = static_cast<unsigned>((static_cast<std::size_t>(seed) * 64 % span) / 256 * 64);
  }
  if (next == nullptr) {
    CK(cudaMalloc(&next, span));
    unsigned* device_positions = nullptr;
    CK(cudaMalloc(&device_positions, positions.size() * sizeof(unsigned)));
    CK(cudaMemcpy(device_positions, positions.data(), positions.size() * sizeof(unsigned),
                  cudaMemcpyHostToDevice));
    run_in_graph(stream, [&](cudaStream_t s) { chain_scatter<<<1, 1, 0, s>>>(device_positions, next); });
    chains.emplace_back(span, next);
  }
  double* ns = nullptr;
  unsigned* sink = nullptr;
  CK(cudaMalloc(&ns, sizeof(double)));
  CK(cudaMalloc(&sink, sizeof(unsigned)));
  std::vector<double> samples;
  const bool warm = span <= (std::size_t{1} << 20);
  constexpr std::size_t kEvictBytes = std::size_t{256} << 20;
  static float4* evict = nullptr;
  if (evict == nullptr) CK(cudaMalloc(&evict, kEvictBytes));
  for (int i = 0; i < kSamples; ++i) {
    run_in_graph(stream, [&](cudaStream_t s) {
      if (!warm)
        evict_l2<<<132 * 8, 256, 0, s>>>(evict, kEvictBytes / sizeof(float4),
                                         reinterpret_cast<float*>(sink));
      chain_chase<<<1, 1, 0, s>>>(next, positions[i * kHops], warm, ns, sink);
    });
    double value = 0;
    CK(cudaMemcpy(&value, ns, sizeof value, cudaMemcpyDeviceToHost));
    samples.push_back(value);
  }
  CK(cudaFree(ns));
  CK(cudaFree(sink));
  return median(samples);
}

void sized_copies() {
  for (const std::string& flag : flags) {
    const bool kernel = flag == "sm-copy";
    if (flag.rfind("d2d=", 0) != 0 && !kernel) continue;
    std::size_t bytes = std::size_t{1} << 30;
    int count = 12;
    if (!kernel) {
      const std::size_t x = flag.find('x');
      bytes = std::stoull(flag.substr(4, x - 4));
      count = std::stoi(flag.substr(x + 1));
    }
    cudaStream_t stream;
    CK(cudaStreamCreate(&stream));
    void *source = nullptr, *target = nullptr;
    CK(cudaMalloc(&source, bytes));
    CK(cudaMalloc(&target, bytes));
    for (int i = 0; i < count; ++i) {
      if (kernel)
        copy_kernel<<<132 * 8, 256, 0, stream>>>(static_cast<const float4*>(source),
                                                 static_cast<float4*>(target), bytes / 16);
      else
        CK(cudaMemcpyAsync(target, source, bytes, cudaMemcpyDeviceToDevice, stream));
    }
    CK(cudaStreamSynchronize(stream));
    CK(cudaFree(source));
    CK(cudaFree(target));
    CK(cudaStreamDestroy(stream));
  }
}

void trigger(const std::string& what, const Stream& library_stream, cudaStream_t stream) {
  if (const std::size_t plus = what.find('+'); plus != std::string::npos) {  // one, then another
    trigger(what.substr(0, plus), library_stream, stream);
    return trigger(what.substr(plus + 1), library_stream, stream);
  }
  unsigned* counter = nullptr;
  CK(cudaMalloc(&counter, sizeof(unsigned)));
  if (what == "library") (void)settle_launch_state(library_stream);
  if (what == "own")
    for (int i = 0; i < 32; ++i) own_settle_kernel<<<1, 1, 0, stream>>>(counter);
  if (what == "memsets")
    for (int i = 0; i < 16; ++i) CK(cudaMemset(counter, 0, sizeof(unsigned)));
  if (what == "two-streams" || what == "other-stream") {  // runs 99, 101
    cudaStream_t other;
    CK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    for (int i = 0; i < 16; ++i) {
      own_settle_kernel<<<1, 1, 0, other>>>(counter);
      own_settle_kernel<<<1, 1, 0, what == "two-streams" ? stream : other>>>(counter);
    }
    CK(cudaStreamSynchronize(other));
    CK(cudaStreamDestroy(other));
  }
  if (what == "eager-64" || what == "eager-1") {  // 32 decode steps of native, outside any graph
    const GdnShape shape;
    const std::int64_t batch = what == "eager-64" ? 64 : 1;  // 384 MiB of state a step, or 6
    GdnDeviceLayer layer(make_random_step_inputs(shape, flat_gdn_layouts(shape), batch, 99));
    const GdnPathLauncher native(GdnPath::native);
    auto workspace = native.make_workspace(shape, batch);
    for (int i = 0; i < 32; ++i) native.enqueue(layer, *workspace, library_stream.get());
    library_stream.synchronize();
  }
  CK(cudaDeviceSynchronize());
}

}  // namespace

// One configuration, fresh then after the trigger: one table row.
int time_configuration(const std::string& what, const std::string& names) {
  (void)current_device();  // as the tool does first
  const GdnShape shape;    // 16/48/128/128, W = 4
  const GdnStepInputs inputs = make_random_step_inputs(shape, flat_gdn_layouts(shape), 1, 1234);
  const Stream library_stream(Stream::Kind::non_blocking);
  cudaStream_t raw_stream = nullptr;
  CK(cudaStreamCreateWithFlags(&raw_stream, cudaStreamNonBlocking));
  const cudaStream_t stream = has("raw-stream") ? raw_stream : library_stream.get();
  if (has("trigger-first")) trigger(what, library_stream, stream);  // as the settled tool does
  if (has("big-alloc") || has("big-memsets") || has("big-copies") || has("copy-bandwidth-kept"))
    big_buffers();
  sized_copies();
  if (has("copy-bandwidth"))  // as the tool measures it, after settling
    std::fprintf(stderr, "copy: %.2f TB/s\n",
                 measure_copy_bandwidth(Stream(), std::int64_t{1} << 30, 2, 10).bytes_per_second() *
                     1e-12);
  const LayerArgs layers = make_layers(inputs);
  CK(cudaDeviceSynchronize());

  const auto time_both = [&](const LayerArgs& stack, double* us) {
    for (int overlapped = 0; overlapped < 2; ++overlapped)
      us[overlapped] = time_native(stack, library_stream, stream,
                                   overlapped ? LaunchOrder::overlapped : LaunchOrder::serial);
  };
  // Where the layers' state lies: the first layer's offset in its 2 MiB page, and the distance
  // from one layer's state to the next.
  const auto placement = [](const LayerArgs& stack) {
    const auto at = [&](int i) { return reinterpret_cast<std::uintptr_t>(stack.args[i].state); };
    char text[64];
    std::snprintf(text, sizeof text, "%#llx, +%lld", static_cast<unsigned long long>(at(0) % (2u << 20)),
                  static_cast<long long>(at(1) - at(0)));
    return std::string(text);
  };
  double fresh[2], after[2], renewed[2] = {0, 0};  // [serial, overlapped]
  time_both(layers, fresh);
  const double fresh_mhz = sm_clock_mhz(stream);
  const double fresh_dram = chase_ns(stream, std::size_t{512} << 20), fresh_l2 = chase_ns(stream, std::size_t{1} << 20);
  if (!has("trigger-first")) trigger(what, library_stream, stream);
  time_both(layers, after);
  const double after_mhz = sm_clock_mhz(stream);
  const double after_dram = chase_ns(stream, std::size_t{512} << 20), after_l2 = chase_ns(stream, std::size_t{1} << 20);
  std::fprintf(stderr, "latency ns, DRAM / L2: fresh %.0f / %.0f, after %.0f / %.0f\n", fresh_dram,
               fresh_l2, after_dram, after_l2);
  std::fprintf(stderr, "SM clock: %.0f MHz fresh, %.0f MHz after\n", fresh_mhz, after_mhz);
  std::string renewed_placement = "-";
  if (has("new-stack")) {  // a stack allocated after the trigger
    const LayerArgs later = make_layers(inputs);
    CK(cudaDeviceSynchronize());
    time_both(later, renewed);
    renewed_placement = placement(later);
  }
  std::printf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %s | %s | %.0f | %.0f |"
              " %.0f / %.0f | %.0f / %.0f |\n",
              names.empty() ? "the tool's" : names.c_str(), what.c_str(), fresh[0], after[0],
              renewed[0], fresh[1], after[1], renewed[1], placement(layers).c_str(),
              renewed_placement.c_str(), fresh_mhz, after_mhz, fresh_dram, fresh_l2, after_dram,
              after_l2);
  return 0;
}

// A misspelt trigger or flag would time the tool's configuration under another name: refuse it.
bool known_trigger(const std::string& what) {
  static const std::set<std::string> triggers = {"none",        "library",      "own",
                                                 "memsets",     "two-streams",  "other-stream",
                                                 "eager-64",    "eager-1"};
  std::size_t start = 0;
  for (std::size_t plus; (plus = what.find('+', start)) != std::string::npos; start = plus + 1)
    if (triggers.count(what.substr(start, plus - start)) == 0) return false;
  return triggers.count(what.substr(start)) != 0;
}

bool known_flag(const std::string& flag) {
  static const std::set<std::string> names = {
      "own-workspaces", "compiled-kernel", "raw-graph",      "raw-timer",         "raw-stream",
      "own-buffers",    "trigger-first",   "new-stack",      "copy-bandwidth",    "other-paths",
      "hot",            "library-workspace", "path-streams", "big-alloc",         "big-memsets",
      "big-copies",     "copy-bandwidth-kept", "sm-copy"};
  if (flag.rfind("d2d=", 0) == 0) {
    const std::size_t x = flag.find('x');
    return x != std::string::npos && x > 4 && x + 1 < flag.size() &&
           flag.find_first_not_of("0123456789", 4) == x &&
           flag.find_first_not_of("0123456789", x + 1) == std::string::npos;
  }
  return names.count(flag) != 0;
}

int main(int argc, char** argv) {
  if (argc < 2 || !known_trigger(argv[1])) {
    std::fprintf(stderr, "usage: launch_state_bisect TRIGGER[+TRIGGER...] [FLAG...] (the header "
                         "lists both)%s%s\n",
                 argc < 2 ? "" : "; unknown trigger: ", argc < 2 ? "" : argv[1]);
    return 2;
  }
  const std::string what = argv[1];
  std::string names;
  for (int i = 2; i < argc; ++i) {
    if (!known_flag(argv[i])) {
      std::fprintf(stderr, "launch_state_bisect: unknown flag %s (the header lists them)\n",
                   argv[i]);
      return 2;
    }
    flags.insert(argv[i]);
    names += std::string(names.empty() ? "" : " ") + argv[i];
  }
  try {
    return time_configuration(what, names);
  } catch (const std::exception& error) {  // no GPU, a failed call: say so, not abort
    std::fprintf(stderr, "launch_state_bisect: %s\n", error.what());
    return 1;
  }
}
