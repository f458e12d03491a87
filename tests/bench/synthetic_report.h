// A synthetic but realistic bench result for the CPU tests: the four GDN decode paths at the
// default shape, timings with known medians (every sample set is median × {0.98 .. 1.05}, so the
// median is exact), and an upstream-direct negative control that the gates reject.
#pragma once

#include <map>
#include <stdexcept>

#include "cases/gdn/bench/gdn_traffic.h"
#include "layoutcheck/bench/result.h"

namespace layoutcheck::testing {

inline std::vector<double> samples_around(double median) {
  return {median * 1.05, median * 0.98, median, median * 1.01, median * 0.99};
}

inline BatchTiming timing(std::int64_t batch, double median_us, double hot_us) {
  BatchTiming result;
  result.batch = batch;
  result.per_layer_us = samples_around(median_us);
  result.per_layer = summarize(result.per_layer_us);
  result.hot_us = samples_around(hot_us);
  result.hot = summarize(result.hot_us);
  return result;
}

inline GateRecord passing_gates(const std::vector<std::int64_t>& batches) {
  GateRecord gates;
  for (std::int64_t batch : batches)
    gates.reference.push_back({batch, 3.9e-3, 2.1e-7, {"conv state", 30720 * batch, 0}});
  gates.multi_step =
      MultiStepGate{1,
                    1024,
                    {{1, 3.8e-3, 2.0e-7}, {256, 3.7e-3, 1.1e-6}, {1024, 3.69e-3, 3.70e-6}},
                    {{"conv state", 30720, 0}}};
  gates.determinism = DeterminismGate{2, {"outputs, state, conv state", 3200000, 0}};
  gates.probe = ProbeGate{"GPU probe", 16480, 0};
  return gates;
}

inline GateRecord misreading_gates(const std::vector<std::int64_t>& batches) {
  GateRecord gates;
  for (std::int64_t batch : batches)
    gates.reference.push_back({batch, 1.41, 0.97, {"conv state", 30720 * batch, 29000 * batch}});
  gates.multi_step = MultiStepGate{1,
                                   1024,
                                   {{1, 1.38, 0.95}, {256, 1.40, 1.02}, {1024, 1.41, 1.05}},
                                   {{"conv state", 30720, 29000}}};
  gates.determinism = DeterminismGate{2, {"outputs, state, conv state", 3200000, 0}};
  gates.probe = ProbeGate{"GPU probe", 16480, 16128};
  return gates;
}

// Medians per path and batch, in µs per layer.
inline BenchReport synthetic_gdn_report() {
  const GdnShape shape;
  BenchReport report;
  report.case_name = "gdn-decode";
  report.command = "layoutcheck bench --case gdn-decode --batch 1,64,256 --out out";
  report.device = "synthetic device";
  report.backend = "none";
  report.sizes = {{"H", 16}, {"HV", 48}, {"K", 128}, {"V", 128}, {"W", 4}};
  report.layers = 48;
  report.batches = {1, 64, 256};
  report.method = {20, 100, 200};
  report.method.settling_copies = 64;
  report.method.settling_launches = 32;
  report.copy_bandwidth.bytes_per_copy = 2'000'000'000;   // 1 GB read + 1 GB written
  report.copy_bandwidth.copy_us = samples_around(500.0);  // → 4.0 TB/s
  report.copy_bandwidth.copy = summarize(report.copy_bandwidth.copy_us);
  LaunchFloor& launch = report.launch_floor.emplace();
  launch.nodes_per_graph = 48;
  launch.node_us = samples_around(1.25);
  launch.node = summarize(launch.node_us);
  report.minimum_traffic = gdn_minimum_traffic(shape);
  report.baseline = "baseline";
  report.comparisons = {{"native", "adapter+upstream"}};

  const std::map<std::string, std::vector<double>> medians = {
      {"baseline", {10.0, 140.0, 520.0}},
      {"adapter+upstream", {8.0, 120.0, 470.0}},
      {"native", {4.0, 105.0, 420.0}},
  };
  auto add_path = [&](const std::string& name, std::vector<StageTraffic> stages) {
    PathResult path;
    path.name = name;
    path.description = name + " path";
    path.stages = std::move(stages);
    path.gates = passing_gates(report.batches);
    for (std::size_t i = 0; i < report.batches.size(); ++i)
      path.timings.push_back(
          timing(report.batches[i], medians.at(name)[i], medians.at(name)[i] * 0.6));
    path.validity = evaluate_gates(path.gates, report.thresholds);
    report.paths.push_back(std::move(path));
  };
  add_path("baseline", gdn_baseline_stages(shape));
  add_path("adapter+upstream", gdn_adapter_upstream_stages(shape));
  add_path("native", {gdn_fused_stage(shape, "fused decode (native layout)")});

  PathResult direct;
  direct.name = "upstream-direct";
  direct.description = "upstream kernel fed the flat layout";
  direct.negative_control = true;
  direct.stages = {gdn_fused_stage(shape, "fused decode (upstream layout) on flat buffers")};
  direct.gates = misreading_gates(report.batches);
  direct.validity = evaluate_gates(direct.gates, report.thresholds);
  report.paths.push_back(std::move(direct));
  return report;
}

// The synthetic report as a run with --launch overlapped records it: every path passed the
// overlapped-launch gate.
inline BenchReport overlapped_gdn_report() {
  BenchReport report = synthetic_gdn_report();
  report.method.overlapped_launches = true;
  report.thresholds.require_overlapped_launches = true;
  for (PathResult& path : report.paths) {
    path.gates.overlapped_launches = BitwiseCheck{"out, state and conv state of 4 layers", 1000, 0};
    path.validity = evaluate_gates(path.gates, report.thresholds);
  }
  return report;
}

inline PathResult& path_named(BenchReport& report, const std::string& name) {
  for (PathResult& path : report.paths)
    if (path.name == name) return path;
  throw std::logic_error("no path " + name);
}

}  // namespace layoutcheck::testing
