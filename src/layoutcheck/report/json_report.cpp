#include "layoutcheck/report/json_report.h"

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "layoutcheck/report/json_report_checks.h"

namespace layoutcheck {

namespace {

// ---- writing ----

Json numbers(const std::vector<double>& values) {
  Json array = Json::array();
  for (double value : values) array.push(value);
  return array;
}

Json summary_json(const Summary& summary, const std::vector<double>& samples) {
  return Json::object()
      .set("count", summary.count)
      .set("median", summary.median)
      .set("p10", summary.p10)
      .set("p90", summary.p90)
      .set("min", summary.min)
      .set("max", summary.max)
      .set("samples", numbers(samples));
}

Json bytes_json(const ByteCount& bytes) {
  return Json::object().set("fixed", bytes.fixed).set("per_row", bytes.per_row);
}

Json bitwise_json(const BitwiseCheck& check) {
  return Json::object()
      .set("what", check.what)
      .set("elements", check.elements)
      .set("mismatches", check.mismatches)
      .set("equal", check.equal());
}

Json gates_json(const GateRecord& gates) {
  Json reference = Json::array();
  for (const ReferenceCheck& check : gates.reference)
    reference.push(Json::object()
                       .set("batch", check.batch)
                       .set("output_rel_l2", check.output_rel_l2)
                       .set("state_rel_l2", check.state_rel_l2)
                       .set("conv_state", bitwise_json(check.conv_state)));
  Json record = Json::object().set("reference", reference);
  if (gates.multi_step) {
    Json checkpoints = Json::array();
    for (const StepCheckpoint& checkpoint : gates.multi_step->checkpoints)
      checkpoints.push(Json::object()
                           .set("step", checkpoint.step)
                           .set("output_rel_l2", checkpoint.output_rel_l2)
                           .set("state_rel_l2", checkpoint.state_rel_l2));
    Json bitwise = Json::array();
    for (const BitwiseCheck& check : gates.multi_step->bitwise) bitwise.push(bitwise_json(check));
    record.set("multi_step", Json::object()
                                 .set("batch", gates.multi_step->batch)
                                 .set("steps", gates.multi_step->steps)
                                 .set("checkpoints", checkpoints)
                                 .set("bitwise", bitwise));
  }
  if (gates.determinism)
    record.set("determinism", Json::object()
                                  .set("runs", gates.determinism->runs)
                                  .set("outputs", bitwise_json(gates.determinism->outputs)));
  if (gates.overlapped_launches)
    record.set("overlapped_launches", bitwise_json(*gates.overlapped_launches));
  if (gates.probe)
    record.set("probe", Json::object()
                            .set("source", gates.probe->source)
                            .set("elements", gates.probe->elements)
                            .set("misread", gates.probe->misread));
  Json failures = Json::strings(gates.failures);
  return record.set("failures", failures);
}

Json stage_json(const StageTraffic& stage) {
  return Json::object()
      .set("name", stage.name)
      .set("launches", stage.launches)
      .set("bytes_read", bytes_json(stage.bytes_read))
      .set("bytes_written", bytes_json(stage.bytes_written))
      .set("production_runs_it", stage.production_runs_it)
      .set("note", stage.note);
}

Json path_json(const BenchReport& report, const PathResult& path) {
  Json stages = Json::array();
  for (const StageTraffic& stage : path.stages) stages.push(stage_json(stage));
  Json reasons = Json::strings(path.validity.reasons);
  const double bandwidth = report.copy_bandwidth.bytes_per_second();
  Json timings = Json::array();
  for (const BatchTiming& timing : path.timings) {
    const std::int64_t bytes = total_bytes(path.stages).at(timing.batch);
    Json entry = Json::object()
                     .set("batch", timing.batch)
                     .set("per_layer_us", summary_json(timing.per_layer, timing.per_layer_us))
                     .set("bytes_per_layer", bytes)
                     .set("floor_us", floor_us(bytes, bandwidth));
    if (timing.per_layer.median > 0)
      entry.set("bandwidth_fraction",
                bandwidth_fraction(bytes, timing.per_layer.median, bandwidth));
    if (timing.hot.count) entry.set("hot_us", summary_json(timing.hot, timing.hot_us));
    timings.push(entry);
  }
  return Json::object()
      .set("name", path.name)
      .set("description", path.description)
      .set("negative_control", path.negative_control)
      .set("stages", stages)
      .set("launches", total_launches(path.stages))
      .set("bytes", bytes_json(total_bytes(path.stages)))
      .set("gates", gates_json(path.gates))
      .set("validity", Json::object().set("valid", path.validity.valid).set("reasons", reasons))
      .set("timings", timings);
}

Json speedups_json(const BenchReport& report) {
  Json speedups = Json::array();
  for (const auto& [candidate, reference] : speedup_pairs(report))
    for (std::int64_t batch : report.batches)
      if (const auto ratio = speedup(report, candidate, reference, batch))
        speedups.push(Json::object()
                          .set("candidate", candidate)
                          .set("reference", reference)
                          .set("batch", batch)
                          .set("ratio", *ratio));
  return speedups;
}

// ---- reading ----

const char* kind_name(Json::Kind kind) {
  static const char* const names[] = {"null",     "a boolean", "an integer", "a number",
                                      "a string", "an array",  "an object"};
  return names[static_cast<int>(kind)];
}

// A value of the document with where it sits ("paths[2].timings[0].per_layer_us"), so that every
// error names the member it is about.
class Member {
 public:
  Member(const Json& value, std::string where) : value_(value), where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& what) const { reject_report_member(where_, what); }

  Member operator[](std::string_view key) const {
    const Json* found = object().find(key);
    if (found == nullptr) reject_report_member(child(key), "missing");
    return {*found, child(key)};
  }
  std::optional<Member> find(std::string_view key) const {
    const Json* found = object().find(key);
    if (found == nullptr) return std::nullopt;
    return Member(*found, child(key));
  }
  std::vector<Member> items() const {
    expect(Json::Kind::array, "an array");
    std::vector<Member> items;
    for (std::size_t i = 0; i < value_.size(); ++i)
      items.emplace_back(value_[i], where_ + "[" + std::to_string(i) + "]");
    return items;
  }
  std::vector<std::pair<std::string, Member>> members() const {
    std::vector<std::pair<std::string, Member>> members;
    for (const auto& [key, value] : object().members())
      members.emplace_back(key, Member(value, child(key)));
    return members;
  }

  std::int64_t integer() const {
    expect(Json::Kind::integer, "an integer");
    return value_.as_int();
  }
  int small_integer() const {
    const std::int64_t value = integer();
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
      fail(std::to_string(value) + " is out of range");
    return static_cast<int>(value);
  }
  // null stands for a non-finite number (JSON has none): read back as NaN.
  double number() const {
    if (value_.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (value_.kind() != Json::Kind::integer) expect(Json::Kind::number, "a number");
    return value_.as_double();
  }
  bool boolean() const {
    expect(Json::Kind::boolean, "a boolean");
    return value_.as_bool();
  }
  const std::string& text() const {
    expect(Json::Kind::string, "a string");
    return value_.as_string();
  }

 private:
  const Json& object() const {
    expect(Json::Kind::object, "an object");
    return value_;
  }
  void expect(Json::Kind kind, const char* wanted) const {
    if (value_.kind() != kind)
      fail(std::string("expected ") + wanted + ", got " + kind_name(value_.kind()));
  }
  std::string child(std::string_view key) const {
    return where_.empty() ? std::string(key) : where_ + "." + std::string(key);
  }

  const Json& value_;
  std::string where_;
};

// Samples are the truth; the summary is recomputed from them. Each is a time: finite and positive,
// or the figures rendered from it would be meaningless. `whose` names the path and batch.
void read_samples(const Member& summary, const std::string& whose, std::vector<double>& samples,
                  Summary& result) {
  const Member list = summary["samples"];
  const std::string suffix = whose.empty() ? "" : " (" + whose + ")";
  samples.clear();
  for (const Member& item : list.items()) {
    const double sample = item.number();
    if (!std::isfinite(sample)) item.fail("not a finite time" + suffix);
    if (!(sample > 0)) item.fail(format_error(sample) + " µs is not a positive time" + suffix);
    samples.push_back(sample);
  }
  if (samples.empty()) list.fail("no samples" + suffix);
  result = summarize(samples);
}

ByteCount byte_count(const Member& value) {
  return {value["fixed"].integer(), value["per_row"].integer()};
}

BitwiseCheck bitwise(const Member& value) {
  return {value["what"].text(), value["elements"].integer(), value["mismatches"].integer()};
}

GateRecord gates_from(const Member& value) {
  GateRecord gates;
  for (const Member& check : value["reference"].items())
    gates.reference.push_back({check["batch"].integer(), check["output_rel_l2"].number(),
                               check["state_rel_l2"].number(), bitwise(check["conv_state"])});
  if (const std::optional<Member> multi = value.find("multi_step")) {
    MultiStepGate gate;
    gate.batch = (*multi)["batch"].integer();
    gate.steps = (*multi)["steps"].integer();
    for (const Member& checkpoint : (*multi)["checkpoints"].items())
      gate.checkpoints.push_back({checkpoint["step"].integer(),
                                  checkpoint["output_rel_l2"].number(),
                                  checkpoint["state_rel_l2"].number()});
    for (const Member& check : (*multi)["bitwise"].items()) gate.bitwise.push_back(bitwise(check));
    gates.multi_step = gate;
  }
  if (const std::optional<Member> determinism = value.find("determinism"))
    gates.determinism =
        DeterminismGate{(*determinism)["runs"].small_integer(), bitwise((*determinism)["outputs"])};
  if (const std::optional<Member> overlapped = value.find("overlapped_launches"))
    gates.overlapped_launches = bitwise(*overlapped);
  if (const std::optional<Member> probe = value.find("probe"))
    gates.probe = ProbeGate{(*probe)["source"].text(), (*probe)["elements"].integer(),
                            (*probe)["misread"].integer()};
  for (const Member& failure : value["failures"].items()) gates.failures.push_back(failure.text());
  return gates;
}

PathResult path_from(const Member& value) {
  PathResult path;
  path.name = value["name"].text();
  path.description = value["description"].text();
  path.negative_control = value["negative_control"].boolean();
  for (const Member& stage : value["stages"].items())
    path.stages.push_back({stage["name"].text(), stage["launches"].integer(),
                           byte_count(stage["bytes_read"]), byte_count(stage["bytes_written"]),
                           stage["production_runs_it"].boolean(), stage["note"].text()});
  path.gates = gates_from(value["gates"]);
  // Read as recorded; check_recorded_report re-judges it from the gates.
  const Member validity = value["validity"];
  path.validity.valid = validity["valid"].boolean();
  for (const Member& reason : validity["reasons"].items())
    path.validity.reasons.push_back(reason.text());
  for (const Member& entry : value["timings"].items()) {
    BatchTiming timing;
    timing.batch = entry["batch"].integer();
    const std::string whose = path.name + ", batch " + std::to_string(timing.batch);
    read_samples(entry["per_layer_us"], whose, timing.per_layer_us, timing.per_layer);
    if (const std::optional<Member> hot = entry.find("hot_us"))
      read_samples(*hot, whose, timing.hot_us, timing.hot);
    path.timings.push_back(std::move(timing));
  }
  return path;
}

BenchReport report_from(const Member& document) {
  // An operator bench's gates are recorded as verdicts, not as numbers to re-judge: such a report
  // is read as it is written (report.md), never re-rendered as if checked.
  if (!document.find("schema") && document.find("operators"))
    reject_report_member("", "an operator bench report (layoutcheck bench --case " +
                                 document["case"].text() +
                                 "): --from re-renders layer-graph bench reports, whose gates it "
                                 "can re-judge; read this one's report.md");
  const std::string schema = document["schema"].text();
  if (schema != kBenchReportSchema && schema != kOverlappedBenchReportSchema)
    document["schema"].fail("is not " + std::string(kBenchReportSchema) + " or " +
                            std::string(kOverlappedBenchReportSchema));
  BenchReport report;
  report.case_name = document["case"].text();
  report.command = document["command"].text();
  report.device = document["device"].text();
  report.backend = document["backend"].text();
  for (const auto& [name, size] : document["sizes"].members())
    report.sizes.emplace_back(name, size.integer());
  report.state_dtype = document["state_dtype"].text();
  report.layers = document["layers"].integer();
  for (const Member& batch : document["batches"].items()) report.batches.push_back(batch.integer());
  const Member method = document["method"];
  report.method = {method["warmup_replays"].small_integer(), method["replays"].small_integer(),
                   method["hot_replays"].small_integer()};
  // The first format launches serially and has no launch member; the second names it.
  if (schema == kOverlappedBenchReportSchema) {
    if (method["launch"].text() != "overlapped")
      method["launch"].fail("is not \"overlapped\" (a serial run is written as " +
                            std::string(kBenchReportSchema) + ")");
    report.method.overlapped_launches = true;
  } else if (method.find("launch")) {
    method["launch"].fail("has no place in " + std::string(kBenchReportSchema) +
                          ", whose runs launch serially");
  }
  // Either may be absent: a report timed in a fresh process has neither, one settled by launches
  // alone has no settling_copies.
  const auto settling_count = [&](const char* name) {
    const std::optional<Member> member = method.find(name);
    if (!member) return 0;
    const int count = member->small_integer();
    if (count < 1) member->fail("must be 1 or more, got " + std::to_string(count));
    return count;
  };
  report.method.settling_launches = settling_count("settling_launches");
  report.method.settling_copies = settling_count("settling_copies");
  if (report.method.settling_copies > 0 && report.method.settling_launches == 0)
    method["settling_copies"].fail("has no place without settling_launches (the bench settles "
                                   "with both)");
  const Member copy = document["copy_bandwidth"];
  report.copy_bandwidth.bytes_per_copy = copy["bytes_per_copy"].integer();
  if (report.copy_bandwidth.bytes_per_copy <= 0)
    copy["bytes_per_copy"].fail("must be 1 or more, got " +
                                std::to_string(report.copy_bandwidth.bytes_per_copy));
  read_samples(copy["copy_us"], "", report.copy_bandwidth.copy_us, report.copy_bandwidth.copy);
  if (const std::optional<Member> launch = document.find("launch_floor")) {
    LaunchFloor& floor = report.launch_floor.emplace();
    floor.nodes_per_graph = (*launch)["nodes_per_graph"].integer();
    if (floor.nodes_per_graph <= 0)
      (*launch)["nodes_per_graph"].fail("must be 1 or more, got " +
                                        std::to_string(floor.nodes_per_graph));
    read_samples((*launch)["node_us"], "", floor.node_us, floor.node);
  }
  report.minimum_traffic = byte_count(document["minimum_traffic"]);
  const Member bounds = document["thresholds"];
  report.thresholds = {bounds["output_rel_l2"].number(),
                       bounds["state_rel_l2"].number(),
                       bounds["multi_step_output_rel_l2"].number(),
                       bounds["multi_step_state_rel_l2"].number(),
                       bounds["require_multi_step"].boolean(),
                       bounds["require_determinism"].boolean(),
                       report.method.overlapped_launches};
  report.baseline = document["baseline"].text();
  for (const Member& pair : document["comparisons"].items())
    report.comparisons.emplace_back(pair["candidate"].text(), pair["reference"].text());
  for (const Member& path : document["paths"].items()) report.paths.push_back(path_from(path));
  check_recorded_report(report);
  // Derived, so not read; but a ratio between paths the report does not hold is a broken file.
  if (const std::optional<Member> speedups = document.find("speedups"))
    for (const Member& entry : speedups->items())
      for (const char* role : {"candidate", "reference"})
        if (report.path(entry[role].text()) == nullptr)
          entry[role].fail("'" + entry[role].text() + "' names no path");
  return report;
}

}  // namespace

Json bench_report_to_json(const BenchReport& report) {
  Json sizes = Json::object();
  for (const auto& [name, value] : report.sizes) sizes.set(name, value);
  Json batches = Json::array();
  for (std::int64_t batch : report.batches) batches.push(batch);
  Json floors = Json::array();
  for (std::int64_t batch : report.batches)
    floors.push(Json::object()
                    .set("batch", batch)
                    .set("bytes_per_layer", report.minimum_traffic.at(batch))
                    .set("floor_us", minimum_floor_us(report, batch)));
  Json comparisons = Json::array();
  for (const auto& [candidate, reference] : report.comparisons)
    comparisons.push(Json::object().set("candidate", candidate).set("reference", reference));
  Json paths = Json::array();
  for (const PathResult& path : report.paths) paths.push(path_json(report, path));
  const GateThresholds& bounds = report.thresholds;
  // The launch order is written only when overlapped (kOverlappedBenchReportSchema); the gate's
  // requirement follows from it and is not written at all.
  Json method = Json::object()
                    .set("warmup_replays", report.method.warmup_replays)
                    .set("replays", report.method.replays)
                    .set("hot_replays", report.method.hot_replays);
  if (report.method.overlapped_launches) method.set("launch", "overlapped");
  if (report.method.settling_copies > 0)
    method.set("settling_copies", report.method.settling_copies);
  if (report.method.settling_launches > 0)
    method.set("settling_launches", report.method.settling_launches);
  Json document = Json::object();
  document
      .set("schema",
           report.method.overlapped_launches ? kOverlappedBenchReportSchema : kBenchReportSchema)
      .set("case", report.case_name)
      .set("command", report.command)
      .set("device", report.device)
      .set("backend", report.backend)
      .set("sizes", sizes)
      .set("state_dtype", report.state_dtype)
      .set("layers", report.layers)
      .set("batches", batches)
      .set("method", method)
      .set("copy_bandwidth",
           Json::object()
               .set("bytes_per_copy", report.copy_bandwidth.bytes_per_copy)
               .set("copy_us",
                    summary_json(report.copy_bandwidth.copy, report.copy_bandwidth.copy_us))
               .set("bytes_per_second", report.copy_bandwidth.bytes_per_second()));
  if (report.launch_floor)
    document.set("launch_floor", Json::object()
                                     .set("nodes_per_graph", report.launch_floor->nodes_per_graph)
                                     .set("node_us", summary_json(report.launch_floor->node,
                                                                  report.launch_floor->node_us)));
  return document.set("minimum_traffic", bytes_json(report.minimum_traffic))
      .set("minimum_floor", floors)
      .set("thresholds", Json::object()
                             .set("output_rel_l2", bounds.output_rel_l2)
                             .set("state_rel_l2", bounds.state_rel_l2)
                             .set("multi_step_output_rel_l2", bounds.multi_step_output_rel_l2)
                             .set("multi_step_state_rel_l2", bounds.multi_step_state_rel_l2)
                             .set("require_multi_step", bounds.require_multi_step)
                             .set("require_determinism", bounds.require_determinism))
      .set("baseline", report.baseline)
      .set("comparisons", comparisons)
      .set("paths", paths)
      .set("speedups", speedups_json(report));
}

std::string render_json_report(const BenchReport& report) {
  return bench_report_to_json(report).dump(2) + "\n";
}

namespace {

std::string value_text(const Json& value) {
  const std::string text = value.dump(0);
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

// The file against what its own data renders to: a summary, a byte total, a ratio or a flag that
// differs from what the samples, stages and checks give is a report contradicting itself.
void check_derived(const Json& recorded, const Json& derived, const std::string& where) {
  const auto differs = [&](const std::string& what) {
    reject_report_member(where, what + ": the report contradicts itself");
  };
  const auto container = [](const Json& value) {
    return value.kind() == Json::Kind::object || value.kind() == Json::Kind::array;
  };
  // Scalars as written: numbers are written shortest-exact and a NaN as null, so a figure read
  // back and derived again is the same text.
  if (container(recorded) || container(derived) ? recorded.kind() != derived.kind()
                                                 : recorded.dump(0) != derived.dump(0))
    differs("recorded " + value_text(recorded) + ", its own data gives " + value_text(derived));
  if (recorded.kind() == Json::Kind::object) {
    for (const auto& [key, value] : recorded.members()) {
      const std::string member = where.empty() ? key : where + "." + key;
      const Json* again = derived.find(key);
      if (again == nullptr) reject_report_member(member, "is not a member of a bench report");
      check_derived(value, *again, member);
    }
    for (const auto& [key, value] : derived.members())
      if (recorded.find(key) == nullptr)
        reject_report_member(where.empty() ? key : where + "." + key, "missing");
  } else if (recorded.kind() == Json::Kind::array) {
    if (recorded.size() != derived.size())
      differs(std::to_string(recorded.size()) + " entries, its own data gives " +
              std::to_string(derived.size()));
    for (std::size_t i = 0; i < recorded.size(); ++i)
      check_derived(recorded[i], derived[i], where + "[" + std::to_string(i) + "]");
  }
}

}  // namespace

BenchReport bench_report_from_json(const Json& document) {
  try {
    BenchReport report = report_from(Member(document, ""));
    check_derived(document, bench_report_to_json(report), "");
    return report;
  } catch (const std::logic_error& error) {  // a safety net: every read above names its member
    reject_report_member("", error.what());
  } catch (const std::overflow_error& error) {
    reject_report_member("", error.what());
  }
}

}  // namespace layoutcheck
