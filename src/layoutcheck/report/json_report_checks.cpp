#include "layoutcheck/report/json_report_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <vector>

#include "layoutcheck/cases/registry.h"
#include "layoutcheck/contract/join.h"
#include "layoutcheck/report/format.h"

namespace layoutcheck {

namespace {

std::string indexed(const std::string& list, std::size_t index) {
  return list + "[" + std::to_string(index) + "]";
}

std::string sizes_text(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

// The first few reasons, enough to see why, without pasting twenty lines into one.
std::string reasons_text(const std::vector<std::string>& reasons) {
  constexpr std::size_t kShown = 3;
  std::string text;
  for (std::size_t i = 0; i < reasons.size() && i < kShown; ++i)
    text += (i ? "; " : "") + reasons[i];
  if (reasons.size() > kShown) text += "; and " + std::to_string(reasons.size() - kShown) + " more";
  return text;
}

void require_positive(const std::string& member, std::int64_t value) {
  if (value < 1) reject_report_member(member, "must be 1 or more, got " + std::to_string(value));
}

void check_problem(const BenchReport& report, const BenchDeclaration& declared) {
  require_positive("layers", report.layers);
  if (report.batches.empty()) reject_report_member("batches", "lists no batch");
  std::set<std::int64_t> listed;  // a set: a hostile report lists millions of batches
  for (std::size_t i = 0; i < report.batches.size(); ++i) {
    require_positive(indexed("batches", i), report.batches[i]);
    if (!listed.insert(report.batches[i]).second)
      reject_report_member(indexed("batches", i),
                           std::to_string(report.batches[i]) + " is listed twice");
  }
  if (report.sizes.empty()) reject_report_member("sizes", "no problem size recorded");
  for (const auto& [name, value] : report.sizes) require_positive("sizes." + name, value);
  for (const std::string& name : declared.sizes)
    if (std::none_of(report.sizes.begin(), report.sizes.end(),
                     [&](const auto& size) { return size.first == name; }))
      reject_report_member("sizes." + name, "missing (" + declared.report_name + " records " +
                                                sizes_text(declared.sizes) + ")");
}

// A verdict is re-judged by the case's bounds, not the file's: a file may be stricter, never
// looser, and may not turn off a gate the case requires.
void check_thresholds(const BenchReport& report, const BenchDeclaration& declared) {
  const GateThresholds& recorded = report.thresholds;
  const GateThresholds& bounds = declared.thresholds;
  const auto no_looser = [&](const char* member, double value, double bound) {
    if (!(value >= 0 && value <= bound))
      reject_report_member(std::string("thresholds.") + member,
                           declared.report_name + " holds paths to " + format_general(bound) +
                               ", the file to " + format_general(value));
  };
  no_looser("output_rel_l2", recorded.output_rel_l2, bounds.output_rel_l2);
  no_looser("state_rel_l2", recorded.state_rel_l2, bounds.state_rel_l2);
  no_looser("multi_step_output_rel_l2", recorded.multi_step_output_rel_l2,
            bounds.multi_step_output_rel_l2);
  no_looser("multi_step_state_rel_l2", recorded.multi_step_state_rel_l2,
            bounds.multi_step_state_rel_l2);
  const auto kept = [&](const char* member, bool value, bool required) {
    if (required && !value)
      reject_report_member(std::string("thresholds.") + member,
                           declared.report_name + " requires that gate; the file turns it off");
  };
  kept("require_multi_step", recorded.require_multi_step, bounds.require_multi_step);
  kept("require_determinism", recorded.require_determinism, bounds.require_determinism);
}

// Every path the case declares, its negative control too: a control left out would hide that
// it came out VALID.
void check_declared_paths(const BenchReport& report, const BenchDeclaration& declared) {
  for (const BenchPathSpec& spec : declared.paths)
    if (report.path(spec.name) == nullptr)
      reject_report_member("paths", "'" + spec.name + "' is missing (" + declared.report_name +
                                        " runs every path it declares)");
}

void check_names(const BenchReport& report) {
  if (report.paths.empty()) reject_report_member("paths", "no path recorded");
  for (std::size_t i = 0; i < report.paths.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (report.paths[i].name == report.paths[j].name)
        reject_report_member(
            indexed("paths", i) + ".name",
            "'" + report.paths[i].name + "' is also the name of " + indexed("paths", j));
  auto require_path = [&](const std::string& member, const std::string& name) {
    if (report.path(name) == nullptr) reject_report_member(member, "'" + name + "' names no path");
  };
  require_path("baseline", report.baseline);
  for (std::size_t i = 0; i < report.comparisons.size(); ++i) {
    require_path(indexed("comparisons", i) + ".candidate", report.comparisons[i].first);
    require_path(indexed("comparisons", i) + ".reference", report.comparisons[i].second);
  }
}

void check_multi_step(const std::string& member, const MultiStepGate& gate) {
  require_positive(member + ".batch", gate.batch);
  require_positive(member + ".steps", gate.steps);
  std::vector<std::int64_t> steps;
  for (const StepCheckpoint& checkpoint : gate.checkpoints) steps.push_back(checkpoint.step);
  const bool increasing = std::adjacent_find(steps.begin(), steps.end(),
                                             [](auto a, auto b) { return b <= a; }) == steps.end();
  if (steps.empty() || steps.front() < 1 || !increasing || steps.back() != gate.steps)
    reject_report_member(member + ".checkpoints",
                         "steps must increase from 1 or more and end at steps (" +
                             std::to_string(gate.steps) + "), got [" + join_numbers(steps) + "]");
}

void check_negative_control(const std::string& member, const BenchDeclaration& declared,
                            const PathResult& path) {
  // The control is what the case defines, not what the file says: a path flagged as a control
  // would hide its INVALID verdict from the findings, and a control unflagged would get ratios.
  const bool control = std::any_of(
      declared.paths.begin(), declared.paths.end(),
      [&](const BenchPathSpec& spec) { return spec.name == path.name && spec.negative_control; });
  if (path.negative_control != control)
    reject_report_member(member + ".negative_control",
                         path.name + (control ? " is" : " is not") + " the " +
                             declared.report_name + " negative control, but is recorded as " +
                             (path.negative_control ? "true" : "false"));
}

void check_verdict(const std::string& member, const BenchReport& report, const PathResult& path) {
  const Validity again = evaluate_gates(path.gates, report.thresholds);
  const std::string where = member + ".validity";
  if (path.validity.valid && !again.valid)
    reject_report_member(where, path.name + ": recorded verdict VALID but its gates fail: " +
                                    reasons_text(again.reasons));
  if (!path.validity.valid && again.valid)
    reject_report_member(where, path.name + ": recorded verdict INVALID but its gates pass");
  if (path.validity.reasons != again.reasons)
    reject_report_member(where + ".reasons", path.name +
                                                 ": the recorded reasons are not those of its "
                                                 "gates, which give: " +
                                                 reasons_text(again.reasons));
}

// A VALID path was checked against the reference at every batch and timed at none outside them.
void check_batches(const std::string& member, const BenchReport& report, const PathResult& path) {
  if (!path.validity.valid && !path.timings.empty())
    reject_report_member(member + ".timings",
                         path.name + " is INVALID, and an INVALID path is never timed");
  if (path.validity.valid)
    for (std::int64_t batch : report.batches)
      if (std::none_of(path.gates.reference.begin(), path.gates.reference.end(),
                       [&](const ReferenceCheck& check) { return check.batch == batch; }))
        reject_report_member(
            member + ".gates.reference",
            path.name + " is VALID but has no reference check at batch " + std::to_string(batch));
  for (std::size_t i = 0; i < path.timings.size(); ++i) {
    const std::int64_t batch = path.timings[i].batch;
    const std::string where = indexed(member + ".timings", i) + ".batch";
    if (std::find(report.batches.begin(), report.batches.end(), batch) == report.batches.end())
      reject_report_member(where, path.name + ": batch " + std::to_string(batch) +
                                      " is not one of the report's batches");
    if (path.timing_at(batch) != &path.timings[i])
      reject_report_member(where,
                           path.name + ": batch " + std::to_string(batch) + " is timed twice");
  }
}

// A figure that breaks physics is not a measurement: a layer that moves its own declared traffic at
// more than kPastCopyBandwidth times the copy bandwidth of the same run (caches give a small
// working set some multiple of it, never thousands), or takes less than a quarter of one graph
// node of the same run's launch floor.
constexpr double kPastCopyBandwidth = 4.0;

void check_physics(const std::string& member, const BenchReport& report, const PathResult& path) {
  const double bandwidth = report.copy_bandwidth.bytes_per_second();
  if (!std::isfinite(bandwidth) || bandwidth <= 0)
    reject_report_member("copy_bandwidth", "no positive, finite bandwidth recorded");
  for (std::size_t i = 0; i < path.timings.size(); ++i) {
    const BatchTiming& timing = path.timings[i];
    const std::string where = indexed(member + ".timings", i) + ".per_layer_us";
    const double floor = floor_us(total_bytes(path.stages).at(timing.batch), bandwidth);
    if (timing.per_layer.median * kPastCopyBandwidth < floor) {
      char text[200];
      std::snprintf(text, sizeof text,
                    "%s at batch %lld: %.3g µs per layer moves its traffic at %.0f %% of the copy "
                    "bandwidth measured in the same run: not a measurement",
                    path.name.c_str(), static_cast<long long>(timing.batch),
                    timing.per_layer.median, 100.0 * floor / timing.per_layer.median);
      reject_report_member(where, text);
    }
    if (report.launch_floor && timing.per_layer.median * 4 < report.launch_floor->node.median)
      reject_report_member(where, path.name + " at batch " + std::to_string(timing.batch) +
                                      ": a layer takes less than a quarter of one graph node of "
                                      "the same run's launch floor: not a measurement");
  }
}

// Counts and errors that cannot be negative, and bitwise checks whose mismatches are some of
// their elements: anything else would render as a figure no run can produce.
void check_counts(const std::string& member, const PathResult& path) {
  for (std::size_t i = 0; i < path.stages.size(); ++i) {
    const StageTraffic& stage = path.stages[i];
    const std::string where = indexed(member + ".stages", i);
    require_positive(where + ".launches", stage.launches);
    for (const auto& [name, bytes] : {std::pair{".bytes_read", stage.bytes_read},
                                      std::pair{".bytes_written", stage.bytes_written}})
      if (bytes.fixed < 0 || bytes.per_row < 0)
        reject_report_member(where + name, "a negative byte count");
  }
  const auto bitwise = [&](const std::string& where, const BitwiseCheck& check) {
    if (check.elements < 0 || check.mismatches < 0 || check.mismatches > check.elements)
      reject_report_member(where, std::to_string(check.mismatches) + " of " +
                                      std::to_string(check.elements) + " elements differ");
  };
  const auto error = [&](const std::string& where, double value) {
    if (value < 0)
      reject_report_member(where, "a negative relative error, " + format_general(value));
  };
  for (std::size_t i = 0; i < path.gates.reference.size(); ++i) {
    const ReferenceCheck& check = path.gates.reference[i];
    const std::string where = indexed(member + ".gates.reference", i);
    error(where + ".output_rel_l2", check.output_rel_l2);
    error(where + ".state_rel_l2", check.state_rel_l2);
    bitwise(where + ".conv_state", check.conv_state);
  }
  if (const std::optional<MultiStepGate>& multi = path.gates.multi_step) {
    for (std::size_t i = 0; i < multi->checkpoints.size(); ++i) {
      const std::string where = indexed(member + ".gates.multi_step.checkpoints", i);
      error(where + ".output_rel_l2", multi->checkpoints[i].output_rel_l2);
      error(where + ".state_rel_l2", multi->checkpoints[i].state_rel_l2);
    }
    for (std::size_t i = 0; i < multi->bitwise.size(); ++i)
      bitwise(indexed(member + ".gates.multi_step.bitwise", i), multi->bitwise[i]);
  }
  if (path.gates.determinism) bitwise(member + ".gates.determinism.outputs",
                                      path.gates.determinism->outputs);
  if (path.gates.overlapped_launches)
    bitwise(member + ".gates.overlapped_launches", *path.gates.overlapped_launches);
}

void check_path(const std::string& member, const BenchReport& report,
                const BenchDeclaration& declared, const PathResult& path) {
  check_counts(member, path);
  if (path.gates.overlapped_launches && !report.method.overlapped_launches)
    reject_report_member(member + ".gates.overlapped_launches",
                         path.name + ": an overlapped-launch gate in a run that launches serially");
  if (path.gates.multi_step) check_multi_step(member + ".gates.multi_step", *path.gates.multi_step);
  if (const std::optional<ProbeGate>& probe = path.gates.probe)
    if (probe->elements < 0 || probe->misread < 0 || probe->misread > probe->elements)
      reject_report_member(member + ".gates.probe",
                           path.name + ": " + std::to_string(probe->misread) + " of " +
                               std::to_string(probe->elements) + " elements misread");
  check_negative_control(member, declared, path);
  check_verdict(member, report, path);
  check_batches(member, report, path);
  check_physics(member, report, path);
}

}  // namespace

void reject_report_member(const std::string& member, const std::string& what) {
  throw std::runtime_error("bench report JSON: " + (member.empty() ? "" : member + ": ") + what);
}

void check_recorded_report(const BenchReport& report) {
  // What the case declares of its bench, not what the file says.
  const std::shared_ptr<const Case> subject = CaseRegistry::instance().find_bench(report.case_name);
  if (!subject)
    reject_report_member("case", "'" + report.case_name + "' is not the bench of any case here");
  const BenchDeclaration declared = *subject->bench();
  check_problem(report, declared);
  check_names(report);
  check_thresholds(report, declared);
  check_declared_paths(report, declared);
  for (std::size_t i = 0; i < report.paths.size(); ++i)
    check_path(indexed("paths", i), report, declared, report.paths[i]);
}

}  // namespace layoutcheck
