#include "layoutcheck/render/report_json.h"

#include <algorithm>

namespace layoutcheck {

Json structure_to_json(const StructuralSummary& structure) {
  Json fields = Json::array();
  for (const FieldStructure& field : structure.fields) {
    Json changes = Json::array();
    for (const std::string& change : field.changes) changes.push(change);
    fields.push(Json::object()
                    .set("name", field.field)
                    .set("producer", Json::object()
                                         .set("layout", field.producer_layout)
                                         .set("offset", field.producer_offset))
                    .set("consumer", Json::object()
                                         .set("layout", field.consumer_layout)
                                         .set("offset", field.consumer_offset))
                    .set("change", layout_change_name(field.kind))
                    .set("changes", std::move(changes))
                    .set("classification", field.classification));
  }
  return Json::object().set("buffer", structure.buffer).set("fields", std::move(fields));
}

Json report_to_json(const MisreadReport& report, std::size_t max_runs) {
  Json fields = Json::array();
  for (const FieldReport& field : report.fields)
    fields.push(Json::object()
                    .set("name", field.name)
                    .set("elements", field.elements)
                    .set("misread", field.misread)
                    .set("unresolved", field.unresolved));
  Json runs = Json::array();
  for (std::size_t i = 0; i < std::min(max_runs, report.runs.size()); ++i) {
    const MisreadRun& run = report.runs[i];
    runs.push(Json::object()
                  .set("offset_begin", run.offset_begin)
                  .set("offset_end", run.offset_end)
                  .set("producer", run.producer)
                  .set("consumer", run.consumer));
  }
  Json unresolved = Json::array();
  for (const std::string& name : report.unresolved_elements) unresolved.push(name);
  Json row_mismatches = Json::array();
  for (const std::string& rows : report.row_mismatches) row_mismatches.push(rows);
  Json notes = Json::array();
  for (const std::string& note : report.notes) notes.push(note);
  Json json = Json::object();
  json.set("producer", report.producer_file)
      .set("consumer", report.consumer_file)
      .set("producer_contract", report.producer)
      .set("consumer_contract", report.consumer)
      .set("elements", report.elements)
      .set("misread", report.misread)
      .set("unresolved", report.unresolved)
      .set("fields", std::move(fields));
  if (report.structure) json.set("structure", structure_to_json(*report.structure));
  return json.set("runs_total", report.runs_total)
      .set("runs", std::move(runs))
      .set("unresolved_elements", std::move(unresolved))
      .set("row_mismatches", std::move(row_mismatches))
      .set("notes", std::move(notes));
}

}  // namespace layoutcheck
