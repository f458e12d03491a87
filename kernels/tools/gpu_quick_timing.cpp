// layoutcheck_gpu_timing: a quick graph-captured timing of every GDN decode path, for
// scripts/gpu-check.sh (the full report with gates is `layoutcheck bench`, issue 5).
//
// For each batch: `layers` layers, each with its own qkvz/ba/conv state/state/output buffers, are
// captured into one graph per path (the adapters in the same graph as the kernel they feed);
// warm-up replays, then timed replays with device events, as the bench times them
// (gpu_bench/graph_timing.h); per-layer time = replay / layers.
// Also a hot figure (one layer replayed, cache resident) and the measured device-to-device copy
// bandwidth, so every figure stands beside its floor. Prints a Markdown table last.
//
// --split-sweep also times the native and baseline paths with every StateSplit forced, and a
// graph of one-thread kernels, one per layer, gives the launch floor a per-layer figure cannot
// beat.
//
// --overlapped launches every kernel overlapped (kernels/launch_order.h) in the layer graphs
// and the launch floor (the hot graph, whose launches share one layer's state, stays serial).
//
//   layoutcheck_gpu_timing [--batches 1,64,256] [--layers 48] [--replays 30] [--split-sweep]
//                          [--overlapped]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/gdn_kernels.h"
#include "layoutcheck/bench/statistics.h"
#include "layoutcheck/gdn/random_problem.h"
#include "layoutcheck/gdn/standard_layouts.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/gdn_paths.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/gpu_bench/copy_bandwidth.h"
#include "layoutcheck/gpu_bench/gdn_path_timing.h"
#include "layoutcheck/gpu_bench/graph_timing.h"
#include "layoutcheck/gpu_bench/launch_floor.h"
#include "layoutcheck/gpu_bench/launch_state.h"

namespace {

using namespace layoutcheck;
using namespace layoutcheck::gpu;

struct Options {
  std::vector<std::int64_t> batches = {1, 64, 256};
  int layers = 48;
  int replays = 30;
  bool split_sweep = false;
  kernels::LaunchOrder launch = kernels::LaunchOrder::serial;
};

struct Row {
  std::string path;
  std::int64_t batch = 0;
  std::string split;
  double median_us = 0, p10_us = 0, p90_us = 0, hot_us = 0;
  double floor_us = 0;
};

std::vector<std::int64_t> parse_list(const std::string& text) {
  std::vector<std::int64_t> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) values.push_back(std::stoll(item));
  return values;
}

// The fewest bytes a step can move (each input read once, each output written once).
double minimum_bytes(const GdnShape& s, std::int64_t batch) {
  const double per_row = 2.0 * (s.qkvz_elements() + s.ba_elements()) +  // bf16 in
                         2.0 * 2 * s.conv_channels() * (s.W - 1) +      // conv state r+w
                         4.0 * 2 * s.state_elements() +                 // state r+w
                         2.0 * s.HV * s.V;                              // out
  const double weights = 2.0 * s.conv_channels() * s.W + 8.0 * s.HV + 2.0 * s.V;
  return per_row * batch + weights;
}

// One layer's inputs for `batch` rows: a few random rows repeated (timing does not depend on
// values; generating hundreds of MB of random state on the host would).
GdnStepInputs make_inputs(const GdnShape& shape, std::int64_t batch) {
  const std::int64_t distinct = std::min<std::int64_t>(batch, 4);
  GdnStepInputs seed = make_random_step_inputs(shape, flat_gdn_layouts(shape), distinct, 1234);
  GdnStepInputs inputs = seed;
  inputs.batch = batch;
  const auto tile_rows = [&](auto& buffer, const auto& source, std::int64_t stride) {
    buffer.resize(static_cast<std::size_t>(batch * stride));
    for (std::int64_t row = 0; row < batch; ++row)
      std::copy_n(source.begin() + (row % distinct) * stride, stride,
                  buffer.begin() + row * stride);
  };
  tile_rows(inputs.qkvz, seed.qkvz, seed.qkvz_row_stride);
  tile_rows(inputs.ba, seed.ba, seed.ba_row_stride);
  tile_rows(inputs.conv_state, seed.conv_state, shape.conv_channels() * (shape.W - 1));
  tile_rows(inputs.state, seed.state, static_cast<std::int64_t>(seed.state.size()) / distinct);
  return inputs;
}

// The bench's timing (graph_timing.h, statistics.h) with 3 warm-up replays.
Row time_path(const GdnPathLauncher& launcher, GdnLayerStack& layers, const GdnShape& shape,
              std::int64_t batch, int replays) {
  auto workspace = launcher.make_workspace(shape, batch);
  LC_GPU_CHECK(hipDeviceSynchronize());  // uploads and counter memsets are done
  Stream stream(Stream::Kind::non_blocking);
  Row row;
  row.path = std::string(launcher.name());
  row.batch = batch;
  row.split = kernels::state_split_name(launcher.split_for(shape, batch));
  {
    Graph graph(stream, [&](hipStream_t s) {
      for (auto& layer : layers) launcher.enqueue(*layer, *workspace, s);
    });
    const Summary per_layer = summarize(
        time_graph_replays(graph, stream, 3, replays, static_cast<double>(layers.size())));
    row.median_us = per_layer.median;
    row.p10_us = per_layer.p10;
    row.p90_us = per_layer.p90;
  }
  {
    Graph hot(stream, [&](hipStream_t s) {
      launcher.enqueue(*layers.front(), *workspace, s, kernels::LaunchOrder::serial);
    });
    row.hot_us = summarize(time_graph_replays(hot, stream, 3, replays, 1.0)).median;
  }
  return row;
}

int run(const Options& options) {
  const DeviceInfo& device = current_device();
  if (options.launch == kernels::LaunchOrder::overlapped)
    if (const auto refusal = overlapped_launch_refusal(device)) {
      std::cerr << "layoutcheck_gpu_timing: --overlapped: " << *refusal << "\n";
      return 2;
    }
  std::cout << "device: " << device.name << " (" << device.arch << ", " << device.multiprocessors
            << " multiprocessors, L2 " << device.l2_bytes / (1 << 20) << " MiB)\n";
  // As the bench does: a fresh process may launch faster than it ever does after (launch_state.h).
  const SettlingWork settled = settle_launch_state(Stream(Stream::Kind::non_blocking));
  std::printf("settled first: %lld copies and %lld kernels launched outside any graph\n",
              static_cast<long long>(settled.copies), static_cast<long long>(settled.launches));
  const double bandwidth =
      measure_copy_bandwidth(Stream(), std::int64_t{1} << 30, 2, 10).bytes_per_second();
  std::printf("device-to-device copy: %.2f TB/s (read + write)\n", bandwidth * 1e-12);

  const GdnShape shape;  // 16/48/128/128, W = 4
  if (options.split_sweep)
    std::printf("launch floor: %.2f us per graph node (one-thread kernels, one per layer)\n",
                measure_launch_floor(Stream(Stream::Kind::non_blocking), options.layers, 3,
                                     options.replays, options.launch)
                    .node.median);
  std::vector<Row> rows;
  for (std::int64_t batch : options.batches) {
    const GdnStepInputs inputs = make_inputs(shape, batch);
    GdnLayerStack layers = make_layer_stack(inputs, options.layers);
    std::vector<GdnPathLauncher> launchers;
    GdnPathOptions chosen;
    chosen.launch = options.launch;
    for (GdnPath path : all_gdn_paths()) launchers.emplace_back(path, chosen);
    if (options.split_sweep)
      for (kernels::StateSplit split : kernels::all_state_splits()) {
        GdnPathOptions fixed = chosen;
        fixed.split = split;
        launchers.emplace_back(GdnPath::native, fixed);
        launchers.emplace_back(GdnPath::baseline, fixed);
      }
    for (const GdnPathLauncher& launcher : launchers) {
      Row row = time_path(launcher, layers, shape, batch, options.replays);
      row.floor_us = minimum_bytes(shape, batch) / bandwidth * 1e6;
      std::fprintf(stderr, "timed %s batch %lld split %s: %.2f us/layer\n", row.path.c_str(),
                   static_cast<long long>(batch), row.split.c_str(), row.median_us);
      rows.push_back(row);
    }
  }

  std::printf(
      "\nGDN decode, 16/48/128/128, fp32 state [HV,K,V], %d layers per graph, %s launches, per "
      "layer (median of %d replays; p10-p90; hot = one layer replayed)\n\n",
      options.layers, options.launch == kernels::LaunchOrder::overlapped ? "overlapped" : "serial",
      options.replays);
  std::printf("| path | batch | split | µs/layer | p10-p90 | hot µs | floor µs | of copy BW |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const Row& row : rows)
    std::printf("| %s%s | %lld | %s | %.2f | %.2f-%.2f | %.2f | %.2f | %.0f%% |\n",
                row.path.c_str(), row.path == "upstream-direct" ? " (INVALID: misreads)" : "",
                static_cast<long long>(row.batch), row.split.c_str(), row.median_us, row.p10_us,
                row.p90_us, row.hot_us, row.floor_us, 100.0 * row.floor_us / row.median_us);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    try {
      if (arg == "--batches")
        options.batches = parse_list(value());
      else if (arg == "--layers")
        options.layers = std::stoi(value());
      else if (arg == "--replays")
        options.replays = std::stoi(value());
      else if (arg == "--split-sweep")
        options.split_sweep = true;
      else if (arg == "--overlapped")
        options.launch = kernels::LaunchOrder::overlapped;
      else
        throw std::invalid_argument("unknown option " + arg);
    } catch (const std::exception& error) {
      std::cerr << "layoutcheck_gpu_timing: " << error.what() << "\n";
      return 2;
    }
  }
  if (options.layers < 1 || options.replays < 1 || options.batches.empty()) {
    std::cerr << "layoutcheck_gpu_timing: layers, replays and batches must be positive\n";
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::cerr << "layoutcheck_gpu_timing: " << error.what() << "\n";
    return 1;
  }
}
