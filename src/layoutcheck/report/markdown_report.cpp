#include "layoutcheck/report/markdown_report.h"

#include <sstream>

#include "layoutcheck/contract/join.h"
#include "layoutcheck/report/fairness_table.h"
#include "layoutcheck/report/format.h"
#include "layoutcheck/report/gates_table.h"
#include "layoutcheck/report/path_summary.h"

namespace layoutcheck {

namespace {

std::string verdict_label(const PathResult& path) {
  std::string label = path.validity.valid ? "VALID" : "**INVALID**";
  if (path.negative_control) label += " (negative control)";
  return label;
}

void write_header(std::ostream& out, const BenchReport& report) {
  std::vector<std::string> sizes;
  for (const auto& [name, value] : report.sizes)
    sizes.push_back(name + "=" + std::to_string(value));
  const CopyBandwidth& copy = report.copy_bandwidth;
  out << "# layoutcheck bench: " << report.case_name << "\n\n";
  out << "- device: " << report.device << " (backend " << report.backend << ")\n";
  out << "- problem: " << join(sizes, " ") << ", " << report.state_dtype << " state, T = 1, "
      << report.layers << " layers per graph\n";
  out << "- copy bandwidth (device-to-device, this run): **"
      << format_bandwidth(copy.bytes_per_second()) << "** (" << format_bytes(copy.bytes_per_copy)
      << " read + written per copy, median of " << copy.copy.count << ")\n";
  if (const std::optional<LaunchFloor>& launch = report.launch_floor)
    out << "- launch floor (this run): **" << format_us(launch->node.median)
        << "** per kernel launch (a graph of " << launch->nodes_per_graph
        << " one-thread kernels, replay time ÷ " << launch->nodes_per_graph << ", median of "
        << launch->node.count
        << "): whatever it moves, no path takes less per layer than this "
           "times its launches (fairness table)\n";
  if (const int launches = report.method.settling_launches; launches > 0) {
    const int copies = report.method.settling_copies;
    out << "- settled first: ";
    if (copies > 0)
      out << copies << " device-to-device " << (copies == 1 ? "copy" : "copies") << " and ";
    out << launches << (launches == 1 ? " kernel" : " kernels")
        << " launched outside any graph before anything was timed"
        << (copies > 0 ? "" : ", then the copy-bandwidth measurement's copies")
        << ", as an application's process has made long before it replays its graphs: until "
           "then a process replays graph kernels faster\n";
  }
  out << "- timing: one graph per path holding all " << report.layers
      << " layers, each with its own state and conv buffers; time/layer = replay time ÷ "
      << report.layers << "; " << report.method.warmup_replays << " warm-up + "
      << report.method.replays << " timed replays, median [p10–p90]. Hot = one layer's buffers "
      << "launched " << report.layers << " times in one graph (" << report.method.hot_replays
      << " replays): cache-resident where they fit in L2, not production-like, never used for "
         "speed-ups\n";
  if (report.method.overlapped_launches)
    out << "- launches: **overlapped** (programmatic dependent launch): in the layer graphs and "
           "the launch floor every kernel of every path may start while the previous one "
           "finishes, loading only its own state, conv state and weights before it waits (NVIDIA "
           "sm_90+; the bench's default launches serially). Hot graphs launch serially, with the "
           "splits serial launches choose (their launches share one layer's state)\n";
  else
    out << "- launches: serial (each kernel starts once the previous one has finished)\n";
  out << "- floor = bytes moved ÷ copy bandwidth; % of copy BW = floor ÷ median time\n";
  if (!report.command.empty()) out << "- command: `" << report.command << "`\n";
  out << "\n";
}

std::string speedup_cell(const BenchReport& report, const PathResult& path, std::int64_t batch) {
  if (!path.validity.valid) return "no ratio: INVALID";
  if (path.name == report.baseline) return "baseline";
  const PathResult* baseline = report.path(report.baseline);
  if (baseline == nullptr) return "— (no baseline)";
  if (!baseline->validity.valid) return "— (baseline INVALID)";
  const std::optional<double> ratio = speedup(report, path.name, report.baseline, batch);
  return ratio ? "**" + format_ratio(*ratio) + "**" : "— (not timed)";
}

void write_batch_table(std::ostream& out, const BenchReport& report, std::int64_t batch) {
  out << "### batch " << batch << "\n\n";
  out << "Minimum traffic " << format_bytes(report.minimum_traffic.at(batch)) << "/layer → floor **"
      << format_us(minimum_floor_us(report, batch)) << "** per layer.\n\n";
  out << "| path | gates | time/layer median [p10–p90] | "
         "hot, 1 layer (cache-resident where it fits in L2) | traffic/layer | floor | "
         "% of copy BW | vs "
      << report.baseline << " |\n";
  out << "|---|---|---|---|---|---|---|---|\n";
  const double bandwidth = report.copy_bandwidth.bytes_per_second();
  for (const PathResult& path : report.paths) {
    const std::int64_t bytes = total_bytes(path.stages).at(batch);
    out << "| " << path.name << " | ";
    if (!path.validity.valid) {
      out << verdict_label(path) << ": " << markdown_cell(invalid_summary(path))
          << " | not timed | — | " << format_bytes(bytes) << " | — | — | "
          << speedup_cell(report, path, batch) << " |\n";
      continue;
    }
    const BatchTiming* timing = path.timing_at(batch);
    out << verdict_label(path) << " | ";
    if (timing == nullptr) {
      out << "not timed | — | " << format_bytes(bytes) << " | "
          << format_us(floor_us(bytes, bandwidth)) << " | — | — |\n";
      continue;
    }
    out << format_spread(timing->per_layer) << " | "
        << (timing->hot.count ? "hot " + format_us(timing->hot.median) : "—") << " | "
        << format_bytes(bytes) << " | " << format_us(floor_us(bytes, bandwidth)) << " | "
        << format_percent(bandwidth_fraction(bytes, timing->per_layer.median, bandwidth)) << " | "
        << speedup_cell(report, path, batch) << " |\n";
  }
  out << "\n";
}

void write_speedups(std::ostream& out, const BenchReport& report) {
  const std::vector<std::pair<std::string, std::string>> pairs = speedup_pairs(report);
  if (pairs.empty()) return;

  out << "## Speed-ups (median time ratios from this run, VALID paths only)\n\n| candidate vs "
         "reference |";
  for (std::int64_t batch : report.batches) out << " batch " << batch << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < report.batches.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& [candidate, reference] : pairs) {
    out << "| " << candidate << " vs " << reference << " |";
    for (std::int64_t batch : report.batches) {
      const std::optional<double> ratio = speedup(report, candidate, reference, batch);
      out << " " << (ratio ? format_ratio(*ratio) : "— (not timed)") << " |";
    }
    out << "\n";
  }
  out << "\n";
}

void write_invalid_paths(std::ostream& out, const BenchReport& report) {
  bool any = false;
  for (const PathResult& path : report.paths) {
    if (path.validity.valid) continue;
    if (!any) out << "## INVALID paths (not timed, never compared)\n\n";
    any = true;
    out << "- **" << path.name << "**" << (path.negative_control ? " (negative control)" : "")
        << ": " << invalid_summary(path) << "\n";
    for (const std::string& reason : path.validity.reasons) out << "  - " << reason << "\n";
  }
  if (any) out << "\n";
}

}  // namespace

std::string render_markdown_report(const BenchReport& report) {
  std::ostringstream out;
  write_header(out, report);
  out << "## Time per layer\n\n";
  for (std::int64_t batch : report.batches) write_batch_table(out, report, batch);
  write_speedups(out, report);
  write_invalid_paths(out, report);
  out << render_fairness_section(report);
  out << render_gates_section(report);
  return out.str();
}

}  // namespace layoutcheck
