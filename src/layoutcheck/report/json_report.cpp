#include "layoutcheck/report/json_report.h"

#include <cmath>
#include <limits>
#include <stdexcept>

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
  if (gates.probe)
    record.set("probe", Json::object()
                            .set("source", gates.probe->source)
                            .set("elements", gates.probe->elements)
                            .set("misread", gates.probe->misread));
  Json failures = Json::array();
  for (const std::string& failure : gates.failures) failures.push(failure);
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
  Json reasons = Json::array();
  for (const std::string& reason : path.validity.reasons) reasons.push(reason);
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
  auto add = [&](const std::string& candidate, const std::string& reference) {
    for (std::int64_t batch : report.batches)
      if (const auto ratio = speedup(report, candidate, reference, batch))
        speedups.push(Json::object()
                          .set("candidate", candidate)
                          .set("reference", reference)
                          .set("batch", batch)
                          .set("ratio", *ratio));
  };
  for (const PathResult& path : report.paths)
    if (path.name != report.baseline) add(path.name, report.baseline);
  for (const auto& [candidate, reference] : report.comparisons)
    if (reference != report.baseline) add(candidate, reference);
  return speedups;
}

// ---- reading ----

[[noreturn]] void malformed(const std::string& what) {
  throw std::runtime_error("bench report JSON: " + what);
}

const Json& member(const Json& object, std::string_view key) {
  const Json* found = object.find(key);
  if (found == nullptr) malformed("missing \"" + std::string(key) + "\"");
  return *found;
}

// null stands for a non-finite number (JSON has none): read it back as NaN.
double number(const Json& value) {
  if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();
  return value.as_double();
}

std::vector<double> number_list(const Json& array) {
  std::vector<double> values;
  for (const Json& item : array.items()) values.push_back(number(item));
  return values;
}

// Samples are the truth; the summary is recomputed from them.
void read_samples(const Json& summary, std::vector<double>& samples, Summary& result) {
  samples = number_list(member(summary, "samples"));
  if (!samples.empty()) result = summarize(samples);
}

ByteCount byte_count(const Json& value) {
  return {member(value, "fixed").as_int(), member(value, "per_row").as_int()};
}

BitwiseCheck bitwise(const Json& value) {
  return {member(value, "what").as_string(), member(value, "elements").as_int(),
          member(value, "mismatches").as_int()};
}

GateRecord gates_from(const Json& value) {
  GateRecord gates;
  for (const Json& check : member(value, "reference").items())
    gates.reference.push_back(
        {member(check, "batch").as_int(), number(member(check, "output_rel_l2")),
         number(member(check, "state_rel_l2")), bitwise(member(check, "conv_state"))});
  if (const Json* multi = value.find("multi_step")) {
    MultiStepGate gate;
    gate.batch = member(*multi, "batch").as_int();
    gate.steps = member(*multi, "steps").as_int();
    for (const Json& checkpoint : member(*multi, "checkpoints").items())
      gate.checkpoints.push_back({member(checkpoint, "step").as_int(),
                                  number(member(checkpoint, "output_rel_l2")),
                                  number(member(checkpoint, "state_rel_l2"))});
    for (const Json& check : member(*multi, "bitwise").items())
      gate.bitwise.push_back(bitwise(check));
    gates.multi_step = gate;
  }
  if (const Json* determinism = value.find("determinism"))
    gates.determinism = DeterminismGate{static_cast<int>(member(*determinism, "runs").as_int()),
                                        bitwise(member(*determinism, "outputs"))};
  if (const Json* probe = value.find("probe"))
    gates.probe =
        ProbeGate{member(*probe, "source").as_string(), member(*probe, "elements").as_int(),
                  member(*probe, "misread").as_int()};
  for (const Json& failure : member(value, "failures").items())
    gates.failures.push_back(failure.as_string());
  return gates;
}

PathResult path_from(const Json& value) {
  PathResult path;
  path.name = member(value, "name").as_string();
  path.description = member(value, "description").as_string();
  path.negative_control = member(value, "negative_control").as_bool();
  for (const Json& stage : member(value, "stages").items())
    path.stages.push_back(
        {member(stage, "name").as_string(), member(stage, "launches").as_int(),
         byte_count(member(stage, "bytes_read")), byte_count(member(stage, "bytes_written")),
         member(stage, "production_runs_it").as_bool(), member(stage, "note").as_string()});
  path.gates = gates_from(member(value, "gates"));
  const Json& validity = member(value, "validity");
  path.validity.valid = member(validity, "valid").as_bool();
  for (const Json& reason : member(validity, "reasons").items())
    path.validity.reasons.push_back(reason.as_string());
  for (const Json& entry : member(value, "timings").items()) {
    BatchTiming timing;
    timing.batch = member(entry, "batch").as_int();
    read_samples(member(entry, "per_layer_us"), timing.per_layer_us, timing.per_layer);
    if (const Json* hot = entry.find("hot_us")) read_samples(*hot, timing.hot_us, timing.hot);
    path.timings.push_back(std::move(timing));
  }
  return path;
}

BenchReport report_from(const Json& document) {
  if (member(document, "schema").as_string() != kBenchReportSchema)
    malformed("schema is not " + std::string(kBenchReportSchema));
  BenchReport report;
  report.case_name = member(document, "case").as_string();
  report.command = member(document, "command").as_string();
  report.device = member(document, "device").as_string();
  report.backend = member(document, "backend").as_string();
  for (const auto& [name, size] : member(document, "sizes").members())
    report.sizes.emplace_back(name, size.as_int());
  report.state_dtype = member(document, "state_dtype").as_string();
  report.layers = member(document, "layers").as_int();
  for (const Json& batch : member(document, "batches").items())
    report.batches.push_back(batch.as_int());
  const Json& method = member(document, "method");
  report.method = {static_cast<int>(member(method, "warmup_replays").as_int()),
                   static_cast<int>(member(method, "replays").as_int()),
                   static_cast<int>(member(method, "hot_replays").as_int())};
  const Json& copy = member(document, "copy_bandwidth");
  report.copy_bandwidth.bytes_per_copy = member(copy, "bytes_per_copy").as_int();
  read_samples(member(copy, "copy_us"), report.copy_bandwidth.copy_us, report.copy_bandwidth.copy);
  if (const Json* launch = document.find("launch_floor")) {
    LaunchFloor& floor = report.launch_floor.emplace();
    floor.nodes_per_graph = member(*launch, "nodes_per_graph").as_int();
    read_samples(member(*launch, "node_us"), floor.node_us, floor.node);
    if (floor.nodes_per_graph <= 0 || floor.node_us.empty())
      malformed("launch_floor needs nodes_per_graph > 0 and samples");
  }
  report.minimum_traffic = byte_count(member(document, "minimum_traffic"));
  const Json& bounds = member(document, "thresholds");
  report.thresholds = {number(member(bounds, "output_rel_l2")),
                       number(member(bounds, "state_rel_l2")),
                       number(member(bounds, "multi_step_output_rel_l2")),
                       number(member(bounds, "multi_step_state_rel_l2")),
                       member(bounds, "require_multi_step").as_bool(),
                       member(bounds, "require_determinism").as_bool()};
  report.baseline = member(document, "baseline").as_string();
  for (const Json& pair : member(document, "comparisons").items())
    report.comparisons.emplace_back(member(pair, "candidate").as_string(),
                                    member(pair, "reference").as_string());
  for (const Json& path : member(document, "paths").items())
    report.paths.push_back(path_from(path));
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
  Json document = Json::object();
  document.set("schema", kBenchReportSchema)
      .set("case", report.case_name)
      .set("command", report.command)
      .set("device", report.device)
      .set("backend", report.backend)
      .set("sizes", sizes)
      .set("state_dtype", report.state_dtype)
      .set("layers", report.layers)
      .set("batches", batches)
      .set("method", Json::object()
                         .set("warmup_replays", report.method.warmup_replays)
                         .set("replays", report.method.replays)
                         .set("hot_replays", report.method.hot_replays))
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

BenchReport bench_report_from_json(const Json& document) {
  try {
    return report_from(document);
  } catch (const std::logic_error& error) {  // a value of the wrong kind
    malformed(error.what());
  }
}

}  // namespace layoutcheck
