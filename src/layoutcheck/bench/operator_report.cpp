#include "layoutcheck/bench/operator_report.h"

#include <algorithm>

#include "layoutcheck/report/format.h"

namespace layoutcheck {

bool OperatorPath::valid() const {
  return !gates.empty() && std::all_of(gates.begin(), gates.end(),
                                       [](const OperatorGate& gate) { return gate.passed; });
}

const OperatorPath* find_path(const std::vector<OperatorPath>& paths, const std::string& name) {
  for (const OperatorPath& candidate : paths)
    if (candidate.name == name) return &candidate;
  return nullptr;
}

const OperatorPath* OperatorMeasurement::path(const std::string& wanted) const {
  return find_path(paths, wanted);
}

const OperatorPath* ModelMeasurement::path(const std::string& wanted) const {
  return find_path(paths, wanted);
}

double operator_floor_us(const OperatorBenchReport& report, const OperatorMeasurement& op) {
  return floor_us(op.bytes, report.copy_bandwidth.bytes_per_second());
}

namespace {

std::optional<double> speedup(const OperatorPath* a, const OperatorPath* b) {
  if (a == nullptr || b == nullptr || !a->valid() || !b->valid() || !a->time || !b->time ||
      a->time->median <= 0)
    return std::nullopt;
  return b->time->median / a->time->median;
}

std::string invalid_path(const std::string& where, const OperatorPath& path) {
  std::string failed;
  for (const OperatorGate& gate : path.gates)
    if (!gate.passed) failed += (failed.empty() ? "" : "; ") + gate.name + ": " + gate.detail;
  return where + ", path " + path.name + " is INVALID" +
         (failed.empty() ? " (no gate ran)" : ": " + failed);
}

}  // namespace

std::optional<double> operator_speedup(const OperatorMeasurement& op, const std::string& path,
                                       const std::string& baseline) {
  return speedup(op.path(path), op.path(baseline));
}

std::optional<double> model_speedup(const ModelMeasurement& model, const std::string& path,
                                    const std::string& baseline) {
  return speedup(model.path(path), model.path(baseline));
}

std::vector<std::string> operator_findings(const OperatorBenchReport& report) {
  std::vector<std::string> found;
  for (const OperatorMeasurement& op : report.operators)
    for (const OperatorPath& path : op.paths)
      if (!path.valid()) found.push_back(invalid_path(op.name + " " + op.shape, path));
  for (const ModelMeasurement& model : report.models) {
    const std::string where = model.name + " " + model.shape;
    for (const OperatorPath& path : model.paths)
      if (!path.valid()) found.push_back(invalid_path(where, path));
    const OperatorPath* candidate = model.path(report.candidate);
    const OperatorPath* baseline = model.path(report.baseline);
    // The gate can only pass on both paths run, timed and measured; anything less is a finding.
    if (candidate == nullptr || baseline == nullptr) {
      found.push_back(where + ": end-to-end gate not run: " +
                      (candidate == nullptr ? report.candidate : report.baseline) +
                      " path missing");
      continue;
    }
    if (!candidate->valid() || !baseline->valid()) continue;  // named above
    if (!candidate->time || !baseline->time || !candidate->device_bytes ||
        !baseline->device_bytes) {
      found.push_back(where + ": end-to-end gate not run: a path has no time or no device memory "
                              "measured");
      continue;
    }
    const std::optional<double> ratio = model_speedup(model, report.candidate, report.baseline);
    if (ratio && *ratio <= 1.0)
      found.push_back(where + ": end-to-end gate failed: " + report.candidate + " is " +
                      format_ratio(*ratio) + " " + report.baseline + ", not faster");
    if (*candidate->device_bytes > *baseline->device_bytes)
      found.push_back(where + ": end-to-end gate failed: " + report.candidate + " holds " +
                      format_bytes(*candidate->device_bytes) + " of device memory, " +
                      report.baseline + " " + format_bytes(*baseline->device_bytes));
  }
  return found;
}

const FrameworkFigure* framework_figure(const OperatorBenchReport& report,
                                        const OperatorMeasurement& op) {
  for (const FrameworkFigure& figure : op.framework)
    if (figure.mode == report.targets.framework_mode) return &figure;
  return nullptr;
}

double operator_bandwidth_fraction(const OperatorBenchReport& report, const OperatorMeasurement& op,
                                   const OperatorPath& path) {
  return bandwidth_fraction(op.bytes, path.time->median, report.copy_bandwidth.bytes_per_second());
}

std::optional<double> same_size_copy_fraction(const OperatorBenchReport& report,
                                              const OperatorMeasurement& op) {
  if (!op.same_size_copy) return std::nullopt;
  return bandwidth_fraction(op.bytes, op.same_size_copy->median,
                            report.copy_bandwidth.bytes_per_second());
}

std::vector<std::string> operator_target_misses(const OperatorBenchReport& report) {
  std::vector<std::string> misses;
  const OperatorTargets& targets = report.targets;
  if (report.operators.empty()) misses.push_back("no operator measured");
  for (const OperatorMeasurement& op : report.operators) {
    const OperatorPath* candidate = op.path(report.candidate);
    const std::string where = op.name + " " + op.shape + ": ";
    if (candidate == nullptr || !candidate->valid() || !candidate->time) {
      misses.push_back(where + report.candidate + " not timed");
      continue;
    }
    const double fraction = operator_bandwidth_fraction(report, op, *candidate);
    if (fraction < targets.copy_bandwidth_fraction) {
      const std::optional<double> copy = same_size_copy_fraction(report, op);
      misses.push_back(where + format_percent(fraction) + " of copy bandwidth, target " +
                       format_percent(targets.copy_bandwidth_fraction) +
                       (copy ? " (a copy of the same bytes: " + format_percent(*copy) + ")" : ""));
    }
    const std::optional<double> ratio = operator_speedup(op, report.candidate, report.baseline);
    if (!ratio)
      misses.push_back(where + "no ratio against " + report.baseline + " (not VALID or not timed)");
    else if (*ratio < targets.over_baseline)
      misses.push_back(where + format_ratio(*ratio) + " " + report.baseline + ", target " +
                       format_ratio(targets.over_baseline));
    if (!targets.framework_mode.empty()) {
      const FrameworkFigure* figure = framework_figure(report, op);
      if (figure == nullptr)
        misses.push_back(where + "no " + targets.framework_mode + " figure recorded");
      else if (candidate->time->median >= figure->us)
        misses.push_back(where + format_us(candidate->time->median) + " is not faster than " +
                         targets.framework_mode + "'s " + format_us(figure->us));
    }
  }
  return misses;
}

std::vector<std::string> operator_targets_not_checked(const OperatorBenchReport& report) {
  if (report.targets.framework_not_measured.empty()) return {};
  const std::string& by = report.targets.framework_measured_by;
  return {"faster than " + report.targets.framework_not_measured +
          " on the same GPU: no framework figures were given (measure them on this GPU" +
          (by.empty() ? "" : " with " + by) + ", then bench --framework FILE)"};
}

}  // namespace layoutcheck
