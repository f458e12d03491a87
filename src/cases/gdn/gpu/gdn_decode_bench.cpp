#include "cases/gdn/gpu/gdn_decode_bench.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/gdn/bench/gdn_gates.h"
#include "cases/gdn/bench/gdn_misreads.h"
#include "cases/gdn/bench/gdn_traffic.h"
#include "cases/gdn/random_problem.h"
#include "cases/gdn/standard_layouts.h"
#include "layoutcheck/gpu/device.h"
#include "cases/gdn/gpu/gdn_gpu_runner.h"
#include "layoutcheck/gpu_bench/copy_bandwidth.h"
#include "cases/gdn/gpu/gdn_path_timing.h"
#include "cases/gdn/gpu/gdn_upstream_probe.h"
#include "layoutcheck/gpu_bench/launch_floor.h"
#include "layoutcheck/gpu_bench/launch_state.h"
#include "cases/gdn/gpu/overlapped_launch_gate.h"

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
  report.method = {options.warmup_replays, options.replays, options.hot_replays,
                   options.overlapped_launches};
  report.thresholds.require_overlapped_launches = options.overlapped_launches;
  report.minimum_traffic = gdn_minimum_traffic(shape);
  report.baseline = gdn_path_name(GdnPath::baseline);
  report.comparisons = {{std::string(gdn_path_name(GdnPath::native)),
                         std::string(gdn_path_name(GdnPath::adapter_upstream))}};
  return report;
}

// The overlapped-launch gate runs 4 layers, each with its own random inputs (so that a kernel
// reading the previous layer's intermediates would read other values), at the smallest benched
// batch of each split the fused kernel takes: every kernel the timed graphs launch is gated.
struct OverlapGateCase {
  std::int64_t batch = 0;
  std::vector<GdnStepInputs> layers;
};

std::vector<OverlapGateCase> overlap_gate_cases(const GdnBenchOptions& options,
                                                const GdnPathOptions& path_options) {
  const GdnPathLauncher fused(GdnPath::native, path_options);
  const GdnLayouts layouts = flat_gdn_layouts(options.shape);
  std::vector<OverlapGateCase> cases;
  std::vector<kernels::StateSplit> seen;
  for (std::int64_t batch : options.batches) {  // ascending
    const kernels::StateSplit split = fused.split_for(options.shape, batch);
    if (std::find(seen.begin(), seen.end(), split) != seen.end()) continue;
    seen.push_back(split);
    OverlapGateCase& gate = cases.emplace_back();
    gate.batch = batch;
    for (int i = 0; i < kOverlappedGateLayers; ++i)
      gate.layers.push_back(make_random_step_inputs(options.shape, layouts, batch,
                                                    7100 + static_cast<std::uint64_t>(i)));
  }
  return cases;
}

BitwiseCheck run_overlap_gate(GdnPath path, const GdnPathOptions& path_options,
                              const std::vector<OverlapGateCase>& cases) {
  BitwiseCheck total;
  std::string batches;
  for (const OverlapGateCase& gate : cases) {
    const BitwiseCheck check =
        check_overlapped_launches(path, path_options, gate.layers, kOverlappedGateReplays);
    total.what = check.what;  // the same for every case: the layers and what is compared
    batches += (batches.empty() ? "" : ", ") + std::to_string(gate.batch);
    total.elements += check.elements;
    total.mismatches += check.mismatches;
  }
  if (!batches.empty()) total.what += " at batch " + batches;
  return total;
}

}  // namespace

BenchReport run_gdn_decode_bench(const GdnBenchOptions& options, const BenchProgress& progress) {
  const DeviceInfo& device = current_device();  // throws GpuError "no GPU: ..." first
  if (options.overlapped_launches)  // before the launch floor, which launches overlapped too
    if (const auto refusal = overlapped_launch_refusal(device))
      throw GpuError("--launch overlapped: " + *refusal + "; run with --launch serial");
  const kernels::LaunchOrder launch =
      options.overlapped_launches ? kernels::LaunchOrder::overlapped : kernels::LaunchOrder::serial;
  GdnPathOptions path_options;
  path_options.launch = launch;
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  BenchReport report = report_skeleton(options, device);
  const GdnShape& shape = options.shape;
  const Stream stream;

  say("settling the launch cost: " + std::to_string(kSettlingCopies) + " copies and " +
      std::to_string(kSettlingLaunches) + " launches outside any graph");
  const SettlingWork settled = settle_launch_state(stream);
  report.method.settling_copies = static_cast<int>(settled.copies);
  report.method.settling_launches = static_cast<int>(settled.launches);
  say("copy bandwidth: " + std::to_string(options.copy_bytes >> 20) + " MiB device-to-device");
  report.copy_bandwidth = measure_copy_bandwidth(stream, options.copy_bytes, 3, 20);
  say("launch floor: a graph of " + std::to_string(options.layers) + " one-thread kernels");
  report.launch_floor =
      measure_launch_floor(stream, options.layers, options.warmup_replays, options.replays, launch);

  GdnGatePlan plan;
  plan.shape = shape;
  plan.batches = options.batches;
  plan.multi_step_batch = options.multi_step_batch;
  plan.steps = options.steps;
  GdnGateRunner gates(plan, say);
  const std::vector<OverlapGateCase> overlap_cases = options.overlapped_launches
                                                         ? overlap_gate_cases(options, path_options)
                                                         : std::vector<OverlapGateCase>{};
  for (GdnPath path : all_gdn_paths()) {
    PathResult result;
    result.name = gdn_path_name(path);
    result.description = description_of(path);
    result.negative_control = path == GdnPath::upstream_direct;
    {
      // Single steps launch serially, with the splits the timed graphs run; device buffers of the
      // gates freed before timing.
      GdnGpuRunner runner(path, path_options);
      result.stages = declared_stages(runner.launcher(), shape);
      result.gates = gates.check(runner);
    }
    if (options.overlapped_launches) {
      say(result.name + ": overlapped-launch gate");
      try {
        result.gates.overlapped_launches = run_overlap_gate(path, path_options, overlap_cases);
      } catch (const std::exception& error) {
        result.gates.failures.push_back(std::string("overlapped-launch gate failed: ") +
                                        error.what());
      }
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
      const GdnPathLauncher launcher(all_gdn_paths()[i], path_options);
      result.timings.push_back(time_gdn_path(launcher, stack, report.method, stream));
    }
  }
  return report;
}

}  // namespace layoutcheck::gpu
