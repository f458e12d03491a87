#include "layoutcheck/report/operator_report_render.h"

#include <algorithm>
#include <sstream>

#include "layoutcheck/report/format.h"

namespace layoutcheck {

namespace {

std::string gates_text(const OperatorPath& path) {
  std::string text;
  for (const OperatorGate& gate : path.gates)
    text += (text.empty() ? "" : "; ") + gate.name + (gate.passed ? " ok" : " FAILED") +
            (gate.detail.empty() ? "" : " (" + gate.detail + ")");
  return text.empty() ? "no gate ran" : text;
}

void render_models(const OperatorBenchReport& report, std::ostringstream& out) {
  out << "## End-to-end gate (each path's whole model in one graph, same inputs and weights)\n\n";
  out << "| model | shape | shared by both paths | path | launches | µs per model | "
      << report.candidate << " vs " << report.baseline << " | device memory (activations + maps) |"
      << "\n|---|---|---|---|---|---|---|---|\n";
  for (const ModelMeasurement& model : report.models) {
    const std::optional<double> ratio = model_speedup(model, report.candidate, report.baseline);
    for (const OperatorPath& path : model.paths) {
      out << "| " << model.name << " | " << model.shape << " | "
          << markdown_cell(model.shared + "; weights " + format_bytes(model.weight_bytes)) << " | "
          << path.name << " | " << path.launches << " | "
          << (!path.valid() ? "INVALID, not timed"
              : path.time   ? format_spread(*path.time)
                            : "not timed")
          << " | "
          << (path.name == report.candidate && ratio ? "**" + format_ratio(*ratio) + "**" : "—")
          << " | " << (path.device_bytes ? format_bytes(*path.device_bytes) : "—") << " |\n";
    }
  }
  out << "\nThe gate: " << report.candidate << " VALID (its model gate passed), faster than "
      << report.baseline << ", and no more device memory.\n\n";
}

Json path_json(const OperatorPath& path) {
  Json gates = Json::array();
  for (const OperatorGate& gate : path.gates)
    gates.push(
        Json::object().set("name", gate.name).set("passed", gate.passed).set("detail", gate.detail));
  Json entry = Json::object()
                   .set("name", path.name)
                   .set("description", path.description)
                   .set("launches", path.launches)
                   .set("valid", path.valid())
                   .set("gates", std::move(gates));
  if (path.time)
    entry.set("median_us", path.time->median)
        .set("p10_us", path.time->p10)
        .set("p90_us", path.time->p90);
  if (path.device_bytes) entry.set("device_bytes", *path.device_bytes);
  return entry;
}

}  // namespace

std::string render_operator_markdown(const OperatorBenchReport& report) {
  std::ostringstream out;
  const CopyBandwidth& copy = report.copy_bandwidth;
  out << "# layoutcheck bench: " << report.case_name << "\n\n";
  out << "- device: " << report.device << " (backend " << report.backend << ")\n";
  out << "- copy bandwidth (device-to-device, this run): **"
      << format_bandwidth(copy.bytes_per_second()) << "** (" << format_bytes(copy.bytes_per_copy)
      << " read + written per copy, median of " << copy.copy.count << ")\n";
  if (report.launch_floor)
    out << "- launch floor (this run): " << format_us(report.launch_floor->node.median)
        << " per kernel launch in a graph\n";
  std::int64_t fewest_sets = 0, most_sets = 0;
  for (const OperatorMeasurement& op : report.operators) {
    fewest_sets = fewest_sets == 0 ? op.buffer_sets : std::min(fewest_sets, op.buffer_sets);
    most_sets = std::max(most_sets, op.buffer_sets);
  }
  out << "- timing: each path's calls captured in one graph, " << report.calls_per_graph
      << " calls over "
      << (fewest_sets == most_sets ? std::to_string(most_sets)
                                   : std::to_string(fewest_sets) + " to " +
                                         std::to_string(most_sets))
      << " sets of buffers in turn, as many as make " << format_bytes(report.rotation_bytes)
      << " for each operator (so no call finds its inputs in L2 from the call before); time per "
         "call = replay time ÷ "
      << report.calls_per_graph << "; " << report.warmup_replays << " warm-up + " << report.replays
      << " timed replays, median [p10–p90]\n";
  out << "- floor = the operator's minimum bytes (inputs read once, outputs written once) ÷ copy "
         "bandwidth; % of copy BW = floor ÷ median time; copy of the same bytes = a "
         "device-to-device copy moving the operator's bytes, timed as the paths are (µs per call, "
         "% of copy BW): what a call of this size reaches without any work\n";
  out << "- targets for " << report.candidate << ": ≥ "
      << format_percent(report.targets.copy_bandwidth_fraction) << " of copy bandwidth, ≥ "
      << format_ratio(report.targets.over_baseline) << " " << report.baseline
      << (report.targets.framework_mode.empty()
              ? ""
              : ", faster than " + report.targets.framework_mode + " on the same GPU")
      << (report.targets.framework_not_measured.empty()
              ? ""
              : "; not checked in this run: faster than " +
                    report.targets.framework_not_measured + " (no framework figures)")
      << "\n";
  if (!report.command.empty()) out << "- command: `" << report.command << "`\n";
  out << "\n## Gates (run before timing; a failed gate makes the path INVALID, never timed)\n\n";
  out << "| operator | shape | path | verdict | gates |\n|---|---|---|---|---|\n";
  for (const OperatorMeasurement& op : report.operators)
    for (const OperatorPath& path : op.paths)
      out << "| " << op.name << " | " << op.shape << " | " << path.name << " | "
          << (path.valid() ? "VALID" : "**INVALID**") << " | " << markdown_cell(gates_text(path))
          << " |\n";
  for (const ModelMeasurement& model : report.models)
    for (const OperatorPath& path : model.paths)
      out << "| " << model.name << " | " << model.shape << " | " << path.name << " | "
          << (path.valid() ? "VALID" : "**INVALID**") << " | " << markdown_cell(gates_text(path))
          << " |\n";

  out << "\n## Time per call\n\n| operator | shape | bytes | floor | copy of the same bytes |";
  std::vector<std::string> names;
  for (const OperatorMeasurement& op : report.operators)
    for (const OperatorPath& path : op.paths)
      if (std::find(names.begin(), names.end(), path.name) == names.end())
        names.push_back(path.name);
  for (const std::string& name : names) out << " " << name << " | % copy BW |";
  std::vector<std::string> modes;
  for (const OperatorMeasurement& op : report.operators)
    for (const FrameworkFigure& figure : op.framework)
      if (std::find(modes.begin(), modes.end(), figure.mode) == modes.end())
        modes.push_back(figure.mode);
  for (const std::string& mode : modes) out << " " << mode << " |";
  out << " " << report.candidate << " vs " << report.baseline << " |";
  if (!report.targets.framework_mode.empty())
    out << " " << report.candidate << " vs " << report.targets.framework_mode << " |";
  out << "\n|---|---|---|---|---|";
  for (std::size_t i = 0; i < names.size() * 2 + modes.size() + 1; ++i) out << "---|";
  if (!report.targets.framework_mode.empty()) out << "---|";
  out << "\n";
  for (const OperatorMeasurement& op : report.operators) {
    out << "| " << op.name << " | " << op.shape << " | " << format_bytes(op.bytes) << " | "
        << format_us(operator_floor_us(report, op)) << " | "
        << (op.same_size_copy ? format_us(op.same_size_copy->median) + " (" +
                                    format_percent(*same_size_copy_fraction(report, op)) + ")"
                              : "—")
        << " |";
    for (const std::string& name : names) {
      const OperatorPath* path = op.path(name);
      if (path == nullptr)
        out << " — | — |";
      else if (!path->valid())
        out << " INVALID, not timed | — |";
      else if (!path->time)
        out << " not timed | — |";
      else
        out << " " << format_spread(*path->time) << " | "
            << format_percent(operator_bandwidth_fraction(report, op, *path)) << " |";
    }
    for (const std::string& mode : modes) {
      const auto figure = std::find_if(op.framework.begin(), op.framework.end(),
                                       [&](const FrameworkFigure& f) { return f.mode == mode; });
      out << " " << (figure == op.framework.end() ? "—" : format_us(figure->us)) << " |";
    }
    const std::optional<double> ratio = operator_speedup(op, report.candidate, report.baseline);
    out << " " << (ratio ? "**" + format_ratio(*ratio) + "**" : "—") << " |";
    if (!report.targets.framework_mode.empty()) {
      const FrameworkFigure* figure = framework_figure(report, op);
      const OperatorPath* candidate = op.path(report.candidate);
      if (figure != nullptr && candidate != nullptr && candidate->valid() && candidate->time)
        out << " " << format_ratio(figure->us / candidate->time->median) << " |";
      else
        out << " — |";
    }
    out << "\n";
  }
  out << "\n";
  if (!report.models.empty()) render_models(report, out);
  const std::vector<std::string> misses = operator_target_misses(report);
  out << "## Targets\n\n";
  const std::vector<std::string> not_checked = operator_targets_not_checked(report);
  if (misses.empty())
    out << (not_checked.empty() ? "Every operator meets every target.\n"
                                : "Every operator meets every target checked; not every target "
                                  "was checked.\n");
  for (const std::string& miss : misses) out << "- missed: " << miss << "\n";
  for (const std::string& target : not_checked) out << "- not checked: " << target << "\n";
  if (!report.not_merged.empty()) {
    out << "\n## Not merged (prototypes rejected; not timed here)\n\n";
    for (const auto& [prototype, why] : report.not_merged)
      out << "- **" << prototype << "**: " << why << "\n";
  }
  out << "\n";
  return out.str();
}

Json operator_report_json(const OperatorBenchReport& report) {
  Json operators = Json::array();
  for (const OperatorMeasurement& op : report.operators) {
    Json paths = Json::array();
    for (const OperatorPath& path : op.paths) {
      Json entry = path_json(path);
      if (path.time)
        entry.set("copy_bandwidth_fraction", operator_bandwidth_fraction(report, op, path));
      paths.push(std::move(entry));
    }
    Json framework = Json::array();
    for (const FrameworkFigure& figure : op.framework)
      framework.push(Json::object().set("mode", figure.mode).set("us", figure.us));
    Json entry = Json::object()
                     .set("name", op.name)
                     .set("shape", op.shape)
                     .set("bytes", op.bytes)
                     .set("buffer_sets", op.buffer_sets)
                     .set("floor_us", operator_floor_us(report, op));
    if (op.same_size_copy)
      entry.set("same_size_copy_us", op.same_size_copy->median)
          .set("same_size_copy_fraction", *same_size_copy_fraction(report, op));
    operators.push(entry.set("paths", std::move(paths)).set("framework", std::move(framework)));
  }
  Json models = Json::array();
  for (const ModelMeasurement& model : report.models) {
    Json paths = Json::array();
    for (const OperatorPath& path : model.paths) paths.push(path_json(path));
    const std::optional<double> ratio = model_speedup(model, report.candidate, report.baseline);
    Json entry = Json::object()
                     .set("name", model.name)
                     .set("shape", model.shape)
                     .set("shared", model.shared)
                     .set("weight_bytes", model.weight_bytes)
                     .set("paths", std::move(paths));
    if (ratio) entry.set("speedup", *ratio);
    models.push(std::move(entry));
  }
  Json misses = Json::strings(operator_target_misses(report));
  Json not_checked = Json::strings(operator_targets_not_checked(report));
  Json not_merged = Json::array();
  for (const auto& [prototype, why] : report.not_merged)
    not_merged.push(Json::object().set("prototype", prototype).set("why", why));
  return Json::object()
      .set("case", report.case_name)
      .set("command", report.command)
      .set("device", report.device)
      .set("backend", report.backend)
      .set("copy_bandwidth_bytes_per_second", report.copy_bandwidth.bytes_per_second())
      .set("warmup_replays", report.warmup_replays)
      .set("replays", report.replays)
      .set("calls_per_graph", report.calls_per_graph)
      .set("rotation_bytes", report.rotation_bytes)
      .set("baseline", report.baseline)
      .set("candidate", report.candidate)
      .set("operators", std::move(operators))
      .set("models", std::move(models))
      .set("target_misses", std::move(misses))
      .set("targets_not_checked", std::move(not_checked))
      .set("not_merged", std::move(not_merged));
}

}  // namespace layoutcheck
