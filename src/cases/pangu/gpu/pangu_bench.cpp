#include "cases/pangu/gpu/pangu_bench.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cases/pangu/block_stack.h"
#include "cases/pangu/framework_figures.h"
#include "cases/pangu/framework_window.h"
#include "cases/pangu/gpu/block_stack_gpu.h"
#include "cases/pangu/gpu/device_walk.h"
#include "cases/pangu/model_gate.h"
#include "kernels/gemm.h"
#include "cases/pangu/layer_norm.h"
#include "kernels/pangu/pangu_generic_kernels.h"
#include "kernels/pangu/pangu_kernels.h"
#include "layoutcheck/bench/statistics.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/gpu_bench/copy_bandwidth.h"
#include "layoutcheck/gpu_bench/graph_timing.h"
#include "layoutcheck/gpu_bench/launch_floor.h"
#include "layoutcheck/gpu_bench/launch_state.h"

namespace layoutcheck::gpu {
namespace {

using Halves = std::vector<std::uint16_t>;
using Buffer = DeviceBuffer<std::uint16_t>;

constexpr int kCallsPerGraph = 24;
constexpr std::int64_t kRotationBytes = std::int64_t{1} << 30;  // well past the L2 of any GPU
constexpr std::int64_t kStackBlocks = 2;  // one unshifted block, one shifted: Pangu's pair
constexpr int kChainCalls = 8;            // calls in the overlapped-launch gate's chain
constexpr unsigned char kPoison = 0xA5;   // fp16 0xA5A5 (-0.0227): unwritten, it differs from 0

// A native path: its name and how its kernels launch.
struct NativeLaunch {
  std::string name;
  kernels::LaunchOrder order;
};

// "native" launches overlapped where the device can (programmatic dependent launch), with the
// serial figure beside it as "native, serial"; elsewhere "native" is serial.
std::vector<NativeLaunch> native_launches() {
  if (!current_device().overlapped_launches) return {{"native", kernels::LaunchOrder::serial}};
  return {{"native, serial", kernels::LaunchOrder::serial},
          {"native", kernels::LaunchOrder::overlapped}};
}

// How the gathers at this width walk their map (gather_walk.h).
const char* walk_text(std::int64_t width) {
  return kernels::pangu_walk_order(width) == WalkOrder::by_token ? ", walked by source token"
                                                                 : ", walked by slot";
}

const char* launch_text(kernels::LaunchOrder order) {
  return order == kernels::LaunchOrder::overlapped ? "; launched overlapped" : "";
}

struct GridLevel {
  std::int64_t z, lat, lon, width, heads;
  std::int64_t tokens() const { return z * lat * lon; }
};

// The two real grids of Pangu-lite: its first level and the one after the patch merge.
constexpr std::array<GridLevel, 2> kLevels = {GridLevel{8, 91, 180, 192, 6},
                                              GridLevel{8, 46, 90, 384, 12}};

Halves random_halves(std::size_t count, std::uint64_t seed, float scale) {
  std::mt19937_64 rng(seed);
  Halves values(count);
  for (auto& value : values)
    value = float_to_fp16(scale * (static_cast<float>(rng() >> 40) * 0x1.0p-24f - 0.5f));
  return values;
}

Halves cpu_gather(const Halves& x, const GatherMap& map, bool normalise) {
  const auto width = static_cast<std::size_t>(map.token_width);
  const Halves source = normalise ? pangu::layer_norm_rows(x, map.token_width) : x;
  Halves out(map.slots.size() * width, 0);
  for (std::size_t s = 0; s < map.slots.size(); ++s)
    if (map.slots[s] >= 0)
      std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(map.slots[s] * width), width,
                  out.begin() + static_cast<std::ptrdiff_t>(s * width));
  return out;
}

// Within fp16's rounding of the output and fp32 statistics: 2 ulp at the reference's magnitude.
OperatorGate close_gate(const std::string& name, const Halves& got, const Halves& want) {
  std::int64_t bad = 0;
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float g = fp16_to_float(got[i]), w = fp16_to_float(want[i]);
    const double allowed = std::max(2.0 * std::abs(w) / 1024.0, 0x1.0p-12);
    const double error = std::isnan(w) ? (std::isnan(g) ? 0.0 : 1e30) : std::abs(g - w);
    worst = std::max(worst, error / allowed);
    bad += !(error <= allowed);
  }
  char text[160];
  std::snprintf(text, sizeof text, "%lld of %zu elements beyond 2 fp16 ulp; worst %.2f of the bound",
                static_cast<long long>(bad), got.size(), worst);
  return {name, bad == 0 && got.size() == want.size(), text};
}

OperatorGate bitwise_gate(const std::string& name, const Halves& got, const Halves& want) {
  std::int64_t differ = got.size() == want.size() ? 0 : -1;
  for (std::size_t i = 0; differ >= 0 && i < got.size(); ++i) differ += got[i] != want[i];
  return {name, differ == 0,
          differ < 0 ? "sizes differ"
                     : std::to_string(differ) + " of " + std::to_string(got.size()) + " differ"};
}

// One operator at one shape on one path: its device buffers, `sets` copies of them so the timed
// calls rotate and none finds its inputs in L2, and the launches of one call on set k.
struct PathPlan {
  std::string name, description;
  std::int64_t launches = 1;
  std::function<void(std::size_t set, hipStream_t)> enqueue;
  std::function<std::vector<OperatorGate>()> check;  // after one call on set 0
  std::function<Halves()> outputs;                   // set 0's outputs, for determinism
  // Fills set 0's outputs with poison bytes before each checked call, so an element the call
  // leaves unwritten (a padding slot's zero) fails the gate instead of reading as written.
  std::function<void()> poison;
  // Where the path launches overlapped: one step of a chain whose calls each read what the one
  // before wrote, the chain's start (reset) and its end (result), for the overlapped-launch gate.
  std::function<void(int step, hipStream_t, kernels::LaunchOrder)> chain_step;
  std::function<void()> chain_reset;
  std::function<Halves()> chain_result;
};

// The buffers every path of an operator reads and writes, per set.
struct OperatorBuffers {
  std::vector<std::vector<Buffer>> sets;  // [set][buffer]
};

Buffer upload(const Halves& host) { return Buffer(std::span<const std::uint16_t>(host)); }

// The chain of calls, each reading what the one before wrote, captured in one graph and run with
// every call launched serially, then overlapped: the two must agree bitwise, or a kernel read
// before its wait.
OperatorGate overlapped_launch_gate(const PathPlan& plan, const Stream& stream) {
  const auto run = [&](kernels::LaunchOrder order) {
    plan.chain_reset();
    const Graph graph(stream, [&](hipStream_t s) {
      for (int step = 0; step < kChainCalls; ++step) plan.chain_step(step, s, order);
    });
    graph.launch(stream);
    stream.synchronize();
    return plan.chain_result();
  };
  const Halves serial = run(kernels::LaunchOrder::serial);
  OperatorGate gate = bitwise_gate("overlapped launches", run(kernels::LaunchOrder::overlapped),
                                   serial);
  gate.detail = std::to_string(kChainCalls) +
                " chained calls, each reading the one before, against serial launches: " +
                gate.detail;
  return gate;
}

OperatorPath run_path(const PathPlan& plan, const Stream& stream, const BenchRequest& request,
                      std::size_t sets, const BenchProgress& say, const std::string& what) {
  OperatorPath path;
  path.name = plan.name;
  path.description = plan.description;
  path.launches = plan.launches;
  say(what + ", " + plan.name + ": gates");
  plan.poison();
  plan.enqueue(0, stream.get());
  stream.synchronize();
  path.gates = plan.check();
  const Halves first = plan.outputs();
  plan.poison();
  plan.enqueue(0, stream.get());
  stream.synchronize();
  const Halves again = plan.outputs();
  OperatorGate determinism = bitwise_gate("determinism", again, first);
  determinism.detail = "two calls on the same inputs: " + determinism.detail;
  path.gates.push_back(determinism);
  if (plan.chain_step) path.gates.push_back(overlapped_launch_gate(plan, stream));
  if (!path.valid()) return path;
  say(what + ", " + plan.name + ": timing");
  const Graph graph(stream, [&](hipStream_t s) {
    for (int call = 0; call < kCallsPerGraph; ++call)
      plan.enqueue(static_cast<std::size_t>(call) % sets, s);
  });
  path.us = time_graph_replays(graph, stream, request.warmup_replays, request.replays,
                               kCallsPerGraph);
  path.time = summarize(path.us);
  return path;
}

std::size_t sets_for(std::int64_t bytes_per_call) {
  return static_cast<std::size_t>(std::clamp<std::int64_t>(
      (kRotationBytes + bytes_per_call - 1) / bytes_per_call, 2, kCallsPerGraph));
}

std::string shape_text(const GridLevel& level) {
  return "[1," + std::to_string(level.tokens()) + "," + std::to_string(level.width) + "]";
}

Contract windows_at(const GridLevel& level, const std::string& contracts_folder) {
  LoadOptions options;
  options.overrides = {{"Z", level.z}, {"LAT", level.lat}, {"LON", level.lon}, {"C", level.width}};
  return load_contract(contracts_folder + "/pangu/windows.shifted.yaml", options);
}

class LevelBench {
 public:
  LevelBench(const GridLevel& level, const Stream& stream, const BenchRequest& request,
             const BenchProgress& say)
      : level_(level), stream_(stream), request_(request), say_(say) {}

  OperatorMeasurement layer_norm() {
    const std::int64_t n = level_.tokens(), c = level_.width, elements = n * c;
    const Halves x = random_halves(static_cast<std::size_t>(elements), 11, 4.0f);
    const Halves want = pangu::layer_norm_rows(x, c);
    OperatorMeasurement op{"LayerNorm", shape_text(level_), 2 * elements * 2, {}, {}};
    const std::size_t sets = sets_for(op.bytes);
    auto buffers = make_sets(sets, {&x}, {elements});
    PathPlan generic;
    generic.name = "generic";
    generic.description = "one block per row (a framework's LayerNorm)";
    generic.enqueue = [&](std::size_t set, hipStream_t s) {
      auto& b = (*buffers)[set];
      kernels::generic_layer_norm(b[0].data(), b[1].data(), n, c, s);
    };
    std::vector<PathPlan> plans{generic};
    auto chain = std::make_shared<std::vector<Buffer>>();  // ping, pong
    for (const NativeLaunch& launch : native_launches()) {
      PathPlan plan;
      plan.name = launch.name;
      plan.description =
          std::string("a group of lanes per row, three pieces a lane, registers, two passes") +
          launch_text(launch.order);
      plan.enqueue = [&, order = launch.order](std::size_t set, hipStream_t s) {
        auto& b = (*buffers)[set];
        kernels::pangu_layer_norm(b[0].data(), b[1].data(), n, c, s, order);
      };
      if (launch.order == kernels::LaunchOrder::overlapped) {
        plan.chain_reset = [&, chain] {
          if (chain->empty())
            for (int i = 0; i < 2; ++i) chain->emplace_back(x.size());
          (*chain)[0].upload(x);
        };
        plan.chain_step = [&, chain](int step, hipStream_t s, kernels::LaunchOrder order) {
          kernels::pangu_layer_norm((*chain)[step % 2].data(), (*chain)[1 - step % 2].data(), n,
                                    c, s, order);
        };
        plan.chain_result = [chain] { return (*chain)[kChainCalls % 2].to_host(); };
      }
      plans.push_back(plan);
    }
    for (PathPlan& plan : plans) {
      plan.poison = [&] { poison((*buffers)[0], {1}); };
      plan.outputs = [&] { return (*buffers)[0][1].to_host(); };
      plan.check = [&] {
        return std::vector{close_gate("reference", (*buffers)[0][1].to_host(), want)};
      };
      op.paths.push_back(run_path(plan, stream_, request_, sets, say_, op.name + " " + op.shape));
    }
    return op;
  }

  OperatorMeasurement add_layer_norm() {
    const std::int64_t n = level_.tokens(), c = level_.width, elements = n * c;
    const Halves residual = random_halves(static_cast<std::size_t>(elements), 12, 400.0f);
    const Halves branch = random_halves(static_cast<std::size_t>(elements), 13, 4.0f);
    // Named, not bound: the gates' lambdas capture them (clang 15 cannot capture a binding).
    const pangu::AddLayerNormRows wanted = pangu::add_layer_norm_rows(residual, branch, c);
    const Halves& want_residual = wanted.residual_out;
    const Halves& want = wanted.out;
    OperatorMeasurement op{"add + LayerNorm", shape_text(level_), 4 * elements * 2, {}, {}};
    const std::size_t sets = sets_for(op.bytes);
    auto buffers = make_sets(sets, {&residual, &branch}, {elements, elements});
    PathPlan generic;
    generic.name = "generic";
    generic.description = "an fp16 add kernel, then the row-per-block LayerNorm";
    generic.launches = 2;
    generic.enqueue = [&](std::size_t set, hipStream_t s) {
      auto& b = (*buffers)[set];
      kernels::generic_add(b[0].data(), b[1].data(), b[2].data(), elements, s);
      kernels::generic_layer_norm(b[2].data(), b[3].data(), n, c, s);
    };
    std::vector<PathPlan> plans{generic};
    // [residual, branch] twice: a step's residual and LayerNorm outputs are the next step's inputs.
    auto chain = std::make_shared<std::vector<Buffer>>();
    for (const NativeLaunch& launch : native_launches()) {
      PathPlan plan;
      plan.name = launch.name;
      plan.description = std::string("add and LayerNorm in one wave per row, the sum rounded first") +
                         launch_text(launch.order);
      plan.enqueue = [&, order = launch.order](std::size_t set, hipStream_t s) {
        auto& b = (*buffers)[set];
        kernels::pangu_add_layer_norm(b[0].data(), b[1].data(), b[2].data(), b[3].data(), n, c, s,
                                      order);
      };
      if (launch.order == kernels::LaunchOrder::overlapped) {
        plan.chain_reset = [&, chain] {
          if (chain->empty())
            for (int i = 0; i < 4; ++i) chain->emplace_back(residual.size());
          (*chain)[0].upload(residual);
          (*chain)[1].upload(branch);
        };
        plan.chain_step = [&, chain](int step, hipStream_t s, kernels::LaunchOrder order) {
          const int from = 2 * (step % 2), to = 2 - from;
          kernels::pangu_add_layer_norm((*chain)[from].data(), (*chain)[from + 1].data(),
                                        (*chain)[to].data(), (*chain)[to + 1].data(), n, c, s,
                                        order);
        };
        plan.chain_result = [chain] {
          const int last = 2 * (kChainCalls % 2);
          Halves both = (*chain)[last].to_host(), out = (*chain)[last + 1].to_host();
          both.insert(both.end(), out.begin(), out.end());
          return both;
        };
      }
      plans.push_back(plan);
    }
    for (PathPlan& plan : plans) {
      plan.poison = [&] { poison((*buffers)[0], {2, 3}); };
      plan.outputs = [&] {
        Halves both = (*buffers)[0][2].to_host(), out = (*buffers)[0][3].to_host();
        both.insert(both.end(), out.begin(), out.end());
        return both;
      };
      plan.check = [&] {
        return std::vector{bitwise_gate("residual bitwise", (*buffers)[0][2].to_host(),
                                        want_residual),
                           close_gate("reference", (*buffers)[0][3].to_host(), want)};
      };
      op.paths.push_back(run_path(plan, stream_, request_, sets, say_, op.name + " " + op.shape));
    }
    return op;
  }

  // The shifted window gather, or LayerNorm fused with it.
  OperatorMeasurement gather(bool normalise) {
    const Contract windows = windows_at(level_, request_.contracts_folder);
    const GatherMap map = make_gather_map(windows);
    const pangu::FrameworkWindowPlan framework = pangu::framework_window_plan(windows);
    const std::int64_t c = level_.width, n = level_.tokens();
    const auto slots = static_cast<std::int64_t>(map.slots.size());
    const Halves x = random_halves(static_cast<std::size_t>(n * c), normalise ? 14 : 15, 4.0f);
    const Halves want = cpu_gather(x, map, normalise);
    OperatorMeasurement op{normalise ? "LayerNorm + gather" : "window gather",
                           shape_text(level_) + " → " + std::to_string(slots),
                           (n + slots) * c * 2,
                           {},
                           {}};
    const std::size_t sets = sets_for(op.bytes);
    // [x, out, normalised x, padded, rolled] per set.
    auto buffers = make_sets(sets, {&x}, {slots * c, normalise ? n * c : 0, slots * c, slots * c});
    const DeviceBuffer<GatherStep> device_walk = upload_walk(map.slots, c);
    const DeviceBuffer<std::int64_t> device_index{
        std::span<const std::int64_t>(framework.index)};
    const kernels::GridShape grid{level_.z, level_.lat, level_.lon, c};
    const kernels::GridShape padded{framework.padded[0], framework.padded[1], framework.padded[2],
                                    c};
    const auto native_kernel = normalise ? kernels::pangu_layer_norm_gather : kernels::pangu_gather;
    PathPlan generic;
    generic.name = "generic";
    generic.description = normalise ? "row-per-block LayerNorm, then pad, roll, index_select"
                                    : "pad, roll, index_select (int64), one kernel each";
    generic.launches = normalise ? 4 : 3;
    generic.enqueue = [&](std::size_t set, hipStream_t s) {
      auto& b = (*buffers)[set];
      const std::uint16_t* source = b[0].data();
      if (normalise) {
        kernels::generic_layer_norm(b[0].data(), b[2].data(), n, c, s);
        source = b[2].data();
      }
      kernels::generic_pad(source, grid, b[3].data(), padded, framework.before.data(), s);
      kernels::generic_roll(b[3].data(), b[4].data(), padded, framework.shift.data(), s);
      kernels::generic_index_select(b[4].data(), device_index.data(), b[1].data(), slots, c, s);
    };
    std::vector<PathPlan> plans{generic};
    // Ping and pong of a slot each a row: a step reads the first n rows of what the one before
    // wrote as its tokens.
    auto chain = std::make_shared<std::vector<Buffer>>();
    for (const NativeLaunch& launch : native_launches()) {
      PathPlan plan;
      plan.name = launch.name;
      plan.description =
          std::string(normalise ? "a group of lanes per slot normalises the token the int32 map "
                                  "gives it"
                                : "16-byte copies by the int32 map, -1 writes zero") +
          walk_text(c) +
          launch_text(launch.order);
      plan.enqueue = [&, order = launch.order](std::size_t set, hipStream_t s) {
        auto& b = (*buffers)[set];
        native_kernel(b[0].data(), device_walk.data(), b[1].data(), slots, c, s, order);
      };
      if (launch.order == kernels::LaunchOrder::overlapped) {
        plan.chain_reset = [&, chain] {
          if (chain->empty())
            for (int i = 0; i < 2; ++i) chain->emplace_back(static_cast<std::size_t>(slots * c));
          Halves start(static_cast<std::size_t>(slots * c), 0);
          std::copy(x.begin(), x.end(), start.begin());
          (*chain)[0].upload(start);
        };
        plan.chain_step = [&, chain](int step, hipStream_t s, kernels::LaunchOrder order) {
          native_kernel((*chain)[step % 2].data(), device_walk.data(),
                        (*chain)[1 - step % 2].data(), slots, c, s, order);
        };
        plan.chain_result = [chain] { return (*chain)[kChainCalls % 2].to_host(); };
      }
      plans.push_back(plan);
    }
    for (PathPlan& plan : plans) {
      plan.poison = [&] { poison((*buffers)[0], {1}); };
      plan.outputs = [&] { return (*buffers)[0][1].to_host(); };
      plan.check = [&] {
        const Halves got = (*buffers)[0][1].to_host();
        return std::vector{normalise ? close_gate("reference", got, want)
                                     : bitwise_gate("map bitwise", got, want)};
      };
      op.paths.push_back(run_path(plan, stream_, request_, sets, say_, op.name + " " + op.shape));
    }
    return op;
  }

  // The reverse gather: the windows back onto the grid (crop + un-shift), by the reverse map.
  OperatorMeasurement reverse() {
    const Contract windows = windows_at(level_, request_.contracts_folder);
    const GatherMap map = make_gather_map(windows);
    const std::vector<std::int32_t> back = reverse_map(map);
    const pangu::FrameworkWindowPlan framework = pangu::framework_window_plan(windows);
    const std::int64_t c = level_.width, n = level_.tokens();
    const auto slots = static_cast<std::int64_t>(map.slots.size());
    const Halves x = random_halves(static_cast<std::size_t>(n * c), 16, 4.0f);
    const Halves gathered = cpu_gather(x, map, false);  // the input: the grid as windows
    OperatorMeasurement op{"window reverse",
                           shape_text(level_) + " ← " + std::to_string(slots),
                           2 * n * c * 2,
                           {},
                           {}};
    const std::size_t sets = sets_for(op.bytes);
    // [windows, out, unpermuted, unrolled] per set.
    auto buffers = make_sets(sets, {&gathered}, {n * c, slots * c, slots * c});
    const DeviceBuffer<GatherStep> device_walk = upload_walk(back, c);
    std::vector<std::int64_t> unindex(framework.index.size(), -1);
    for (std::size_t slot = 0; slot < framework.index.size(); ++slot)
      unindex[static_cast<std::size_t>(framework.index[slot])] = static_cast<std::int64_t>(slot);
    const DeviceBuffer<std::int64_t> device_unindex{std::span<const std::int64_t>(unindex)};
    const kernels::GridShape grid{level_.z, level_.lat, level_.lon, c};
    const kernels::GridShape padded{framework.padded[0], framework.padded[1], framework.padded[2],
                                    c};
    const std::int64_t unshift[3] = {-framework.shift[0], -framework.shift[1], -framework.shift[2]};
    PathPlan generic;
    generic.name = "generic";
    generic.description = "index_select (int64) back to the padded grid, roll back, crop";
    generic.launches = 3;
    generic.enqueue = [&](std::size_t set, hipStream_t s) {
      auto& b = (*buffers)[set];
      kernels::generic_index_select(b[0].data(), device_unindex.data(), b[2].data(), slots, c, s);
      kernels::generic_roll(b[2].data(), b[3].data(), padded, unshift, s);
      kernels::generic_crop(b[3].data(), padded, b[1].data(), grid, framework.before.data(), s);
    };
    std::vector<PathPlan> plans{generic};
    // The overlapped-launch gate's chain: the reverse and the gather in turn, each reading what
    // the one before wrote (windows onto the grid, the grid into windows again).
    const DeviceBuffer<GatherStep> forward_walk = upload_walk(map.slots, c);
    auto chain = std::make_shared<std::vector<Buffer>>();  // windows, grid
    for (const NativeLaunch& launch : native_launches()) {
      PathPlan plan;
      plan.name = launch.name;
      plan.description = std::string("the gather kernel by the reverse map") + walk_text(c) +
                         launch_text(launch.order);
      plan.enqueue = [&, order = launch.order](std::size_t set, hipStream_t s) {
        auto& b = (*buffers)[set];
        kernels::pangu_gather(b[0].data(), device_walk.data(), b[1].data(), n, c, s, order);
      };
      if (launch.order == kernels::LaunchOrder::overlapped) {
        plan.chain_reset = [&, chain] {
          if (chain->empty()) {
            chain->emplace_back(static_cast<std::size_t>(slots * c));
            chain->emplace_back(static_cast<std::size_t>(n * c));
          }
          (*chain)[0].upload(gathered);
        };
        plan.chain_step = [&, chain](int step, hipStream_t s, kernels::LaunchOrder order) {
          if (step % 2 == 0)
            kernels::pangu_gather((*chain)[0].data(), device_walk.data(), (*chain)[1].data(), n,
                                  c, s, order);
          else
            kernels::pangu_gather((*chain)[1].data(), forward_walk.data(), (*chain)[0].data(),
                                  slots, c, s, order);
        };
        plan.chain_result = [chain] { return (*chain)[kChainCalls % 2 == 0 ? 0 : 1].to_host(); };
      }
      plans.push_back(plan);
    }
    for (PathPlan& plan : plans) {
      plan.poison = [&] { poison((*buffers)[0], {1}); };
      plan.outputs = [&] { return (*buffers)[0][1].to_host(); };
      plan.check = [&] {
        return std::vector{bitwise_gate("grid bitwise", (*buffers)[0][1].to_host(), x)};
      };
      op.paths.push_back(run_path(plan, stream_, request_, sets, say_, op.name + " " + op.shape));
    }
    return op;
  }

 private:
  // `sets` copies of the inputs (uploaded) and of poisoned buffers of the given sizes.
  std::shared_ptr<std::vector<std::vector<Buffer>>> make_sets(
      std::size_t sets, const std::vector<const Halves*>& inputs,
      const std::vector<std::int64_t>& others) {
    auto all = std::make_shared<std::vector<std::vector<Buffer>>>(sets);
    for (auto& set : *all) {
      for (const Halves* input : inputs) set.push_back(upload(*input));
      for (std::int64_t size : others) {
        set.emplace_back(static_cast<std::size_t>(std::max<std::int64_t>(size, 1)));
        set.back().fill_bytes(kPoison);
      }
    }
    return all;
  }

  static void poison(std::vector<Buffer>& set, std::initializer_list<std::size_t> outputs) {
    for (std::size_t output : outputs) set[output].fill_bytes(kPoison);
  }

  GridLevel level_;
  const Stream& stream_;
  const BenchRequest& request_;
  const BenchProgress& say_;
};

bool all_finite(const Halves& values) {
  return std::all_of(values.begin(), values.end(),
                     [](std::uint16_t v) { return std::isfinite(fp16_to_float(v)); });
}

// The end-to-end gate and the model gate at one real grid: the Pangu-lite block stack along both
// paths over the same inputs and weights, native held to generic channel by channel.
ModelMeasurement block_stack(const GridLevel& level, const Stream& stream,
                             const BenchRequest& request, const BenchProgress& say) {
  const pangu::BlockStack stack = pangu::make_block_stack(
      pangu::alternating_windows(request.contracts_folder, level.z, level.lat, level.lon,
                                 level.width, kStackBlocks),
      level.heads, 31);
  const Halves input = pangu::stack_input(stack, 32);
  ModelMeasurement model;
  model.name = "Pangu-lite block stack, " + std::to_string(kStackBlocks) + " blocks";
  model.shape = shape_text(level);
  model.shared = std::string("GEMMs ") + kernels::gemm_implementation() +
                 ", window attention, bias + GELU, the closing residual add; " +
                 std::to_string(level.heads) + " heads";
  Halves generic_output;
  for (const pangu::StackPath path : {pangu::StackPath::generic, pangu::StackPath::native}) {
    say(model.name + " " + model.shape + ", " + pangu::path_name(path));
    const StackRun run = time_gpu_block_stack(stack, path, input, stream, request.warmup_replays,
                                              request.replays);
    OperatorPath measured;
    measured.name = pangu::path_name(path);
    measured.description = path == pangu::StackPath::native
                               ? "LayerNorm + gather, reverse gather, add + LayerNorm kernels"
                               : "LayerNorm, pad, roll, index_select, add as separate kernels";
    measured.launches = run.launches;
    if (path == pangu::StackPath::generic) {
      generic_output = run.output;
      measured.gates.push_back({"finite", all_finite(run.output), "no NaN or infinity out"});
    } else {
      const pangu::ChannelComparison gate =
          pangu::compare_channels(run.output, generic_output, stack.channels);
      measured.gates.push_back({"model gate", gate.passed(), gate.summary()});
    }
    OperatorGate determinism = bitwise_gate("determinism", run.replayed, run.output);
    determinism.detail = "graph replay against the first run: " + determinism.detail;
    measured.gates.push_back(determinism);
    if (measured.valid()) {
      measured.us = run.us;
      measured.time = summarize(run.us);
    }
    measured.device_bytes = run.activation_bytes + run.index_bytes;
    model.weight_bytes = run.weight_bytes;
    model.paths.push_back(std::move(measured));
  }
  return model;
}

}  // namespace

OperatorBenchReport run_pangu_bench(const BenchRequest& request, const BenchProgress& say) {
  const DeviceInfo& device = current_device();
  OperatorBenchReport report;
  // Figures from another GPU are refused before anything is timed.
  std::optional<pangu::FrameworkFigures> framework;
  if (!request.framework_figures.empty()) {
    framework = pangu::load_framework_figures(request.framework_figures);
    pangu::require_comparable(*framework, device.name, kCallsPerGraph, kRotationBytes);
    pangu::require_same_windows(*framework,
                                windows_at(kLevels.front(), request.contracts_folder));
  }
  report.case_name = "pangu";
  report.command = request.command;
  report.device = device.name + " (" + device.arch + ", " +
                  std::to_string(device.multiprocessors) + " multiprocessors)";
#if defined(LC_GPU_VENDOR_NVIDIA)
  report.backend = "cuda";
#else
  report.backend = "hip";
#endif
  report.warmup_replays = request.warmup_replays;
  report.replays = request.replays;
  report.calls_per_graph = kCallsPerGraph;
  report.rotation_bytes = kRotationBytes;
  report.baseline = "generic";
  report.candidate = "native";
  // Beating torch.compile is a target of the case; a run without its figures says so.
  report.targets.framework_mode = framework ? pangu::kTorchCompile : "";
  report.targets.framework_not_measured = framework ? "" : pangu::kTorchCompile;
  report.targets.framework_measured_by = "scripts/pangu-framework-bench.py --json FILE";
  report.not_merged = {
      {"one-pass LayerNorm statistics (sum and sum of squares)",
       "loses the spread of a large-mean row (the large-mean value probe)"},
      {"a generic-width LayerNorm behind the specialised one", "hides a wrong width instead of "
                                                               "refusing it"},
      {"residual add in fp32, the sum normalised unrounded",
       "breaks the framework's rounding point (the rounding-point value probe)"},
      {"one row a wave at 192 channels", "a lane holds one piece of the row, too few loads in "
                                         "flight: 84 % of the copy bandwidth"},
      {"a grid-stride loop over rows in every kernel", "1 to 2 µs slower a call at 192 channels"},
      {"LayerNorm one wave per row (two at 192 channels)",
       "2.8 % slower at 192 channels and 3 % at 384 (H100) than a row to a group of lanes, "
       "prefetched into L2 under a one-block bound"},
      {"L2 prefetch before the wait in the gathers and add + LayerNorm", "slower"},
      {"LayerNorm + gather one wave per row (two at 192 channels), its row as fp32 registers",
       "2.5 % slower at 192 channels and 1 % at 384 than a row to a group of lanes, three packed "
       "pieces a lane"},
      {"add + LayerNorm in groups of lanes, three packed pieces a lane",
       "2 to 4 % slower than one wave per row"},
      {"the gathers walked by slot (window order) at 384 and 768 channels",
       "1.7 to 2.2 % slower than by source token (H100): scattered reads cost more than "
       "scattered writes"},
      {"the gathers walked by source token at 192 channels",
       "0.6 to 1.5 % slower than by slot (H100)"},
  };
  const Stream stream(Stream::Kind::non_blocking);
  say("settling the launch cost outside any graph");
  settle_launch_state(stream);
  say("copy bandwidth: 1024 MiB device-to-device");
  report.copy_bandwidth = measure_copy_bandwidth(stream, kRotationBytes, 3, 20);
  report.launch_floor = measure_launch_floor(stream, kCallsPerGraph, request.warmup_replays,
                                             request.replays);
  for (const GridLevel& level : kLevels) {
    LevelBench bench(level, stream, request, say);
    report.operators.push_back(bench.layer_norm());
    report.operators.push_back(bench.add_layer_norm());
    report.operators.push_back(bench.gather(false));
    report.operators.push_back(bench.gather(true));
    report.operators.push_back(bench.reverse());
  }
  say("copies of each operator's bytes");
  for (OperatorMeasurement& op : report.operators)
    op.same_size_copy = summarize(time_copy_of(stream, op.bytes, sets_for(op.bytes),
                                               kCallsPerGraph, request.warmup_replays,
                                               request.replays));
  for (const GridLevel& level : kLevels)
    report.models.push_back(block_stack(level, stream, request, say));
  for (OperatorMeasurement& op : report.operators)
    op.buffer_sets = static_cast<std::int64_t>(sets_for(op.bytes));
  if (framework) pangu::attach_framework_figures(*framework, report.operators);
  return report;
}

}  // namespace layoutcheck::gpu
