#include "layoutcheck/report/fairness_table.h"

#include <sstream>

#include "layoutcheck/report/format.h"

namespace layoutcheck {

namespace {

ByteCount sum(const std::vector<StageTraffic>& stages, ByteCount StageTraffic::*member) {
  ByteCount total;
  for (const StageTraffic& stage : stages) total += stage.*member;
  return total;
}

std::string production_cell(const StageTraffic& stage) {
  if (stage.production_runs_it) return "yes";
  return "**⚑ no**" + (stage.note.empty() ? "" : " — " + stage.note);
}

}  // namespace

std::string render_fairness_section(const BenchReport& report) {
  std::ostringstream out;
  out << "## Fairness: stages per layer (bytes grow per batch row; weights are read once)\n\n";
  out << "| path | stage | launches | bytes read | bytes written | production runs it |\n";
  out << "|---|---|---|---|---|---|\n";
  for (const PathResult& path : report.paths) {
    for (const StageTraffic& stage : path.stages)
      out << "| " << path.name << " | " << stage.name << " | " << stage.launches << " | "
          << format_bytes(stage.bytes_read) << " | " << format_bytes(stage.bytes_written) << " | "
          << production_cell(stage) << " |\n";
    out << "| " << path.name << " | **total** | **" << total_launches(path.stages) << "** | **"
        << format_bytes(sum(path.stages, &StageTraffic::bytes_read)) << "** | **"
        << format_bytes(sum(path.stages, &StageTraffic::bytes_written)) << "** | |\n";
  }
  out << "| minimum | any correct path: inputs read once, outputs written once | 1 | "
      << format_bytes(report.minimum_traffic) << " (read + written) | | |\n\n";

  if (const PathResult* baseline = report.path(report.baseline)) {
    for (const StageTraffic& stage : baseline->stages)
      if (!stage.production_runs_it)
        out << "> **Unfair baseline:** " << baseline->name << " runs \"" << stage.name
            << "\", which production does not: every speed-up against it is overstated.\n\n";
  }
  return out.str();
}

}  // namespace layoutcheck
