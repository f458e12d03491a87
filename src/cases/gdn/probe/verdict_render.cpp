#include "cases/gdn/probe/verdict_render.h"

#include "layoutcheck/render/report_json.h"
#include "layoutcheck/render/report_text.h"

namespace layoutcheck {
namespace {

std::string list(const std::vector<std::int64_t>& values) {
  std::string text;
  for (std::int64_t value : values) text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text;
}

}  // namespace

std::string verdict_to_text(const ProbeVerdict& verdict, std::size_t max_runs) {
  const MisreadReport& reads = verdict.reads;
  std::string text = "probe: " + verdict.runner + " fed " +
                     (reads.producer.empty() ? std::string("the producer's") : reads.producer) +
                     " (" + std::string(gdn_buffer_name(verdict.buffer)) + ", " +
                     std::to_string(verdict.probed) + " offsets, " +
                     std::to_string(verdict.sweep_batch) + " per run)\n";
  if (reads.misread > 0 || reads.unresolved > 0) {
    text += "  " + pad_right("field", 8) + pad_right("elements", 10) + pad_right("misread", 9) +
            "unresolved\n";
    for (const FieldReport& field : reads.fields)
      text += "  " + pad_right(field.name, 8) + pad_right(std::to_string(field.elements), 10) +
              pad_right(std::to_string(field.misread), 9) + std::to_string(field.unresolved) + "\n";
  }
  for (std::size_t i = 0; i < reads.runs.size() && i < max_runs; ++i)
    text += "  " + describe_run(reads.runs[i]) + "\n";
  if (reads.runs_total > static_cast<std::int64_t>(std::min(max_runs, reads.runs.size())))
    text += "  ... and " +
            std::to_string(reads.runs_total -
                           static_cast<std::int64_t>(std::min(max_runs, reads.runs.size()))) +
            " more runs\n";
  for (const OffsetRun& run : verdict.never_read)
    text += "  never read: " + offsets_text(run.offset_begin, run.offset_end) + " (" + run.holds +
            ")\n";
  for (const RoutingFinding& finding : verdict.routing)
    text += "  value head " + std::to_string(finding.value_head) + " reads q and k of key head " +
            list(finding.key_heads_read) + " (expected " +
            std::to_string(finding.expected_key_head) + ")\n";
  for (const RowStrideFinding& finding : verdict.row_stride) {
    text += "  batch row " + std::to_string(finding.row) + ": a probe at offset " +
            std::to_string(finding.offset) + " is read as " + finding.here + "; in row 0 as " +
            finding.in_row_zero;
    if (finding.kernel_row_stride)
      text +=
          "; the kernel's row stride appears to be " + std::to_string(*finding.kernel_row_stride);
    text += "\n";
  }
  for (const std::string& detail : verdict.unresolved_details)
    text += "  unresolved: " + detail + "\n";
  if (verdict.unresolved_probes > static_cast<std::int64_t>(verdict.unresolved_details.size()))
    text += "  ... and " +
            std::to_string(verdict.unresolved_probes -
                           static_cast<std::int64_t>(verdict.unresolved_details.size())) +
            " more unresolved probes\n";
  if (verdict.value_deviations > 0)
    text += "  " + std::to_string(verdict.value_deviations) +
            " probes read the element the conv state names, but the heads' values differ from "
            "the reference's prediction\n";
  if (verdict.values.ran)
    text += "  values on random inputs laid out as the kernel claims: " + verdict.values.detail +
            (verdict.values.passed ? "" : " (FAILED)") + "\n";
  if (verdict.layout_ok() && !verdict.values_ok())
    text +=
        "  this buffer is read right, yet the values differ: a numeric bug, or a misread of a "
        "buffer not probed here (probe it with --buffer)\n";
  // The contracts' own row dims (the probes above measure the kernel's rows themselves).
  for (const std::string& rows : reads.row_mismatches) text += "  contracts' rows: " + rows + "\n";
  for (const std::string& note : reads.notes) text += "  note: " + note + "\n";
  text += "verdict: " + verdict.conclusion() + "\n";
  return text;
}

Json verdict_to_json(const ProbeVerdict& verdict, std::size_t max_runs) {
  Json json = report_to_json(verdict.reads, max_runs);
  json.set("runner", verdict.runner);
  json.set("buffer", std::string(gdn_buffer_name(verdict.buffer)));
  json.set("probed", verdict.probed);
  json.set("agrees_with_diff", verdict.agrees_with_diff);
  json.set("static_misread", verdict.static_diff.misread);
  Json never_read = Json::array();
  for (const OffsetRun& run : verdict.never_read)
    never_read.push(Json::object()
                        .set("offset_begin", run.offset_begin)
                        .set("offset_end", run.offset_end)
                        .set("holds", run.holds));
  json.set("never_read", std::move(never_read));
  Json routing = Json::array();
  for (const RoutingFinding& finding : verdict.routing) {
    Json heads = Json::array();
    for (std::int64_t head : finding.key_heads_read) heads.push(head);
    routing.push(Json::object()
                     .set("value_head", finding.value_head)
                     .set("expected_key_head", finding.expected_key_head)
                     .set("key_heads_read", std::move(heads)));
  }
  json.set("routing", std::move(routing));
  Json lanes = Json::array();
  for (const LaneConsumption& lane : verdict.lanes) {
    Json consumed = Json::object();
    for (const auto& [field, count] : lane.elements_per_field) consumed.set(field, count);
    Json heads = Json::array();
    for (std::int64_t head : lane.key_heads) heads.push(head);
    lanes.push(Json::object()
                   .set("value_head", lane.value_head)
                   .set("consumed", std::move(consumed))
                   .set("key_heads", std::move(heads)));
  }
  json.set("lanes", std::move(lanes));
  Json rows = Json::array();
  for (const RowStrideFinding& finding : verdict.row_stride) {
    Json responding = Json::array();
    for (std::int64_t row : finding.responding_rows) responding.push(row);
    Json item = Json::object()
                    .set("row", finding.row)
                    .set("offset", finding.offset)
                    .set("responding_rows", std::move(responding))
                    .set("read_here", finding.here)
                    .set("read_in_row_zero", finding.in_row_zero);
    item.set("kernel_row_stride",
             finding.kernel_row_stride ? Json(*finding.kernel_row_stride) : Json());
    rows.push(std::move(item));
  }
  json.set("row_stride", std::move(rows));
  json.set("unresolved_probes", verdict.unresolved_probes);
  Json details = Json::array();
  for (const std::string& detail : verdict.unresolved_details) details.push(detail);
  json.set("unresolved_details", std::move(details));
  json.set("value_deviations", verdict.value_deviations);
  json.set("read_from_several_offsets", verdict.read_from_several_offsets);
  json.set("values", Json::object()
                         .set("checked", verdict.values.ran)
                         .set("passed", verdict.values.passed)
                         .set("out_relative_l2", verdict.values.out_relative_l2)
                         .set("state_relative_l2", verdict.values.state_relative_l2)
                         .set("conv_state_exact", verdict.values.conv_state_exact));
  json.set("sweep_batch", verdict.sweep_batch);
  json.set("clean", verdict.clean());
  json.set("conclusion", verdict.conclusion());
  return json;
}

}  // namespace layoutcheck
