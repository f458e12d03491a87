#include "layoutcheck/render/misread_json.h"

#include <algorithm>

namespace layoutcheck {

Json structure_to_json(const StructuralSummary& structure) {
  Json fields = Json::array();
  for (const FieldStructure& field : structure.fields) {
    Json changes = Json::strings(field.changes);
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

Json token_moves_to_json(const TokenMoves& moves) {
  const auto numbers = [](const std::vector<std::int64_t>& values) {
    Json array = Json::array();
    for (std::int64_t value : values) array.push(value);
    return array;
  };
  Json axes = Json::strings(moves.axes);
  Json groups = Json::array();
  for (const TokenMoveGroup& group : moves.groups) {
    Json mode_moves = Json::object();
    for (const auto& [mode, by] : group.mode_moves) mode_moves.set(mode, by);
    groups.push(Json::object()
                    .set("displacement", group.displacement)
                    .set("mode_moves", group.coordinates_known ? std::move(mode_moves) : Json())
                    .set("tokens", group.tokens)
                    .set("box_begin", numbers(group.box_begin))
                    .set("box_end", numbers(group.box_end))
                    .set("example", Json::object()
                                        .set("token", numbers(group.example))
                                        .set("producer_slot", group.example_producer_slot)
                                        .set("consumer_slot", group.example_consumer_slot)));
  }
  return Json::object()
      .set("field", moves.field)
      .set("axes", std::move(axes))
      .set("tokens", moves.tokens)
      .set("misplaced", moves.misplaced)
      .set("groups_total", moves.groups_total)
      .set("groups", std::move(groups));
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
  Json unresolved = Json::strings(report.unresolved_elements);
  Json row_mismatches = Json::strings(report.row_mismatches);
  Json notes = Json::strings(report.notes);
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
  if (report.token_moves) json.set("token_moves", token_moves_to_json(*report.token_moves));
  return json.set("runs_total", report.runs_total)
      .set("runs", std::move(runs))
      .set("unresolved_elements", std::move(unresolved))
      .set("row_mismatches", std::move(row_mismatches))
      .set("notes", std::move(notes));
}

}  // namespace layoutcheck
