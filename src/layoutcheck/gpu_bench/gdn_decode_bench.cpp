#include "layoutcheck/gpu_bench/gdn_decode_bench.h"

#include <stdexcept>
#include <string>

#include "layoutcheck/bench/gdn_gates.h"
#include "layoutcheck/bench/gdn_misreads.h"
#include "layoutcheck/bench/gdn_traffic.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/gdn_gpu_runner.h"
#include "layoutcheck/gpu_bench/copy_bandwidth.h"
#include "layoutcheck/gpu_bench/gdn_path_timing.h"
#include "layoutcheck/gpu_bench/gdn_upstream_probe.h"
#include "layoutcheck/gpu_bench/launch_floor.h"

namespace layoutcheck::gpu {

namespace {

const char* description_of(GdnPath path) {
  switch (path) {
    case GdnPath::baseline:
      return "production on the flat layout: conv update, gating, recurrent update and gated "
             "RMSNorm as separate kernels";
    case GdnPath::adapter_upstream:
      return "flat -> interleaved adapters for qkvz and ba, in the same graph, then the upstream "
             "fused kernel";
    case GdnPath::native:
      return "one fused kernel reading the flat layout directly";
    case GdnPath::upstream_direct:
      return "the upstream fused kernel fed the flat buffers unmodified (negative control)";
  }
  return "";
}

// Bytes from the declarations of bench/gdn_traffic.h, names and production flags from the
// launcher: the fairness table shows the stages that really launch.
std::vector<StageTraffic> declared_stages(const GdnPathLauncher& launcher, const GdnShape& shape) {
  std::vector<StageTraffic> declared;
  switch (launcher.path()) {
    case GdnPath::baseline:
      declared = gdn_baseline_stages(shape);
      break;
    case GdnPath::adapter_upstream:
      declared = gdn_adapter_upstream_stages(shape);
      break;
    case GdnPath::native:
    case GdnPath::upstream_direct:
      declared = {gdn_fused_stage(shape, "")};
      break;
  }
  const std::vector<GdnPathStage> launched = launcher.stages();
  if (launched.size() != declared.size())
    throw std::logic_error("bench: the declared traffic of " + std::string(launcher.name()) +
                           " has " + std::to_string(declared.size()) + " stages, the launcher " +
                           std::to_string(launched.size()));
  for (std::size_t i = 0; i < declared.size(); ++i) {
    declared[i].name = launched[i].name;
    declared[i].production_runs_it = launched[i].production_runs_it;
  }
  return declared;
}

// The layouts each path's first kernel reads at the path's boundary, for the static diff.
GdnLayouts consumed_layouts(GdnPath path, const GdnShape& shape) {
  return path == GdnPath::upstream_direct ? interleaved_gdn_layouts(shape)
                                          : flat_gdn_layouts(shape);
}

BenchReport report_skeleton(const GdnBenchOptions& options, const DeviceInfo& device) {
  BenchReport report;
  report.case_name = "gdn-decode";
  report.command = options.command;
  report.device = device.name + " (" + device.arch + ", " + std::to_string(device.multiprocessors) +
                  " multiprocessors)";
#if defined(LC_GPU_VENDOR_NVIDIA)
  report.backend = "cuda";
#else
  report.backend = "hip";
#endif
  const GdnShape& shape = options.shape;
  report.sizes = {{"H", shape.H}, {"HV", shape.HV}, {"K", shape.K}, {"V", shape.V}, {"W", shape.W}};
  report.layers = options.layers;
  report.batches = options.batches;
  report.method = {options.warmup_replays, options.replays, options.hot_replays};
  report.minimum_traffic = gdn_minimum_traffic(shape);
  report.baseline = gdn_path_name(GdnPath::baseline);
  report.comparisons = {{std::string(gdn_path_name(GdnPath::native)),
                         std::string(gdn_path_name(GdnPath::adapter_upstream))}};
  return report;
}

}  // namespace

BenchReport run_gdn_decode_bench(const GdnBenchOptions& options, const BenchProgress& progress) {
  const DeviceInfo& device = current_device();  // throws GpuError "no GPU: ..." first
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  BenchReport report = report_skeleton(options, device);
  const GdnShape& shape = options.shape;
  const Stream stream;

  say("copy bandwidth: " + std::to_string(options.copy_bytes >> 20) + " MiB device-to-device");
  report.copy_bandwidth = measure_copy_bandwidth(stream, options.copy_bytes, 3, 20);
  say("launch floor: a graph of " + std::to_string(options.layers) + " one-thread kernels");
  report.launch_floor =
      measure_launch_floor(stream, options.layers, options.warmup_replays, options.replays);

  GdnGatePlan plan;
  plan.shape = shape;
  plan.batches = options.batches;
  plan.multi_step_batch = options.multi_step_batch;
  plan.steps = options.steps;
  GdnGateRunner gates(plan, say);
  for (GdnPath path : all_gdn_paths()) {
    PathResult result;
    result.name = gdn_path_name(path);
    result.description = description_of(path);
    result.negative_control = path == GdnPath::upstream_direct;
    {
      GdnGpuRunner runner(path);  // device buffers of the gates freed before timing
      result.stages = declared_stages(runner.launcher(), shape);
      result.gates = gates.check(runner);
    }
    result.gates.probe =
        static_gdn_misreads(flat_gdn_layouts(shape), consumed_layouts(path, shape));
    if (path == GdnPath::upstream_direct && options.gpu_probe) {
      try {
        probe_upstream_direct(shape, result.gates, say);
      } catch (const std::exception& error) {  // the static diff's count stays, labelled so
        result.gates.failures.push_back(std::string("GPU probe failed: ") + error.what());
      }
    }
    result.validity = evaluate_gates(result.gates, report.thresholds);
    say(result.name + ": " + (result.validity.valid ? "VALID" : "INVALID"));
    report.paths.push_back(std::move(result));
  }

  // Every VALID path at one batch over the same layer stack: identical inputs, same run.
  for (std::int64_t batch : options.batches) {
    say("batch " + std::to_string(batch) + ": uploading " + std::to_string(options.layers) +
        " layers");
    GdnLayerStack stack = make_layer_stack(gates.inputs_at(batch), options.layers);
    for (std::size_t i = 0; i < report.paths.size(); ++i) {
      PathResult& result = report.paths[i];
      if (!result.validity.valid) continue;  // gates first: an INVALID path is never timed
      say("batch " + std::to_string(batch) + ": timing " + result.name);
      const GdnPathLauncher launcher(all_gdn_paths()[i]);
      result.timings.push_back(time_gdn_path(launcher, stack, report.method, stream));
    }
  }
  return report;
}

}  // namespace layoutcheck::gpu
