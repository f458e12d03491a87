#include "cases/gdn/probe/gdn_case_verdict.h"

#include "cases/gdn/gdn_case.h"
#include "layoutcheck/contract/join.h"
#include "layoutcheck/render/misread_text.h"

namespace layoutcheck {
namespace {

Json lanes_json(const std::vector<LaneConsumption>& lanes) {
  Json json = Json::array();
  for (const LaneConsumption& lane : lanes) {
    Json consumed = Json::object();
    for (const auto& [field, count] : lane.elements_per_field) consumed.set(field, count);
    Json heads = Json::array();
    for (std::int64_t head : lane.key_heads) heads.push(head);
    json.push(Json::object()
                  .set("value_head", lane.value_head)
                  .set("consumed", std::move(consumed))
                  .set("key_heads", std::move(heads)));
  }
  return json;
}

}  // namespace

CaseVerdict gdn_case_verdict(const ProbeVerdict& probe) {
  const std::string buffer(gdn_buffer_name(probe.buffer));
  CaseVerdict verdict;
  verdict.case_name = "gdn";
  verdict.decoder = std::string(kGdnDecoder);
  verdict.runner = probe.runner;
  verdict.buffer = buffer;
  verdict.offsets = probe.offsets > 0 ? probe.offsets : probe.probed;
  verdict.probed = probe.probed;
  verdict.rows = probe.sweep_batch;
  verdict.runs = probe.runs;
  verdict.reads = probe.reads;
  verdict.static_diff = probe.static_diff;
  verdict.agrees_with_diff = probe.agrees_with_diff;
  verdict.unresolved = probe.unresolved_probes;
  verdict.placed_by_claim = probe.placed_by_claim;
  for (const auto& [other, contract] : probe.not_probed)
    verdict.other_layouts.push_back({std::string(gdn_buffer_name(other)), contract, contract});
  for (const OffsetRun& run : probe.never_read)
    verdict.notes.push_back("never read: " + offsets_text(run.offset_begin, run.offset_end) + " (" +
                            run.holds + ")");
  for (const RoutingFinding& finding : probe.routing)
    verdict.add("routing", buffer,
                "value head " + std::to_string(finding.value_head) + " reads q and k of key head " +
                    join_numbers(finding.key_heads_read) + " (expected " +
                    std::to_string(finding.expected_key_head) + ")");
  for (const RowStrideFinding& finding : probe.row_stride) {
    std::string message = "batch row " + std::to_string(finding.row) + ": a probe at offset " +
                          std::to_string(finding.offset) + " is read as " + finding.here +
                          "; in row 0 as " + finding.in_row_zero;
    if (finding.kernel_row_stride)
      message +=
          "; the kernel's row stride appears to be " + std::to_string(*finding.kernel_row_stride);
    verdict.add("row-stride", buffer, message);
    ++verdict.row_stride_findings;
  }
  for (const std::string& detail : probe.unresolved_details)
    verdict.add("unresolved", buffer, detail);
  // The listing is capped; the count is the sweep's.
  if (probe.unresolved_probes > 0) verdict.finding_counts["unresolved"] = probe.unresolved_probes;
  if (probe.read_from_several_offsets > 0)
    verdict.add("several-offsets", buffer,
                std::to_string(probe.read_from_several_offsets) +
                    " elements are read from more than one offset (different heads read them "
                    "from different places)");
  if (probe.read_from_several_offsets > 0)
    verdict.finding_counts["several-offsets"] = probe.read_from_several_offsets;
  if (probe.value_deviations > 0)
    verdict.add("values", buffer,
                std::to_string(probe.value_deviations) +
                    " probes read the element the conv state names, but the heads' values differ "
                    "from the reference's prediction");
  if (probe.value_deviations > 0) verdict.finding_counts["values"] = probe.value_deviations;
  verdict.values_checked = probe.values.ran;
  verdict.values_ok = probe.values.passed;
  verdict.values_detail = probe.values.detail;
  if (probe.layout_ok() && !probe.values_ok())
    verdict.notes.push_back(
        "this buffer is read right, yet the values differ: a numeric bug, or a misread of a buffer "
        "not probed here (probe it with --buffer)");
  for (const std::string& rows : probe.reads.row_mismatches)
    verdict.notes.push_back("contracts' rows: " + rows);
  for (const std::string& note : probe.reads.notes) verdict.notes.push_back(note);
  verdict.details = Json::object()
                        .set("lanes", lanes_json(probe.lanes))
                        .set("out_relative_l2", probe.values.out_relative_l2)
                        .set("state_relative_l2", probe.values.state_relative_l2)
                        .set("conv_state_exact", probe.values.conv_state_exact);
  return verdict;
}

}  // namespace layoutcheck
