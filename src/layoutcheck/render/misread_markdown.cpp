#include "layoutcheck/render/misread_markdown.h"

#include <algorithm>
#include <vector>

#include "layoutcheck/contract/join.h"
#include "layoutcheck/render/markdown_text.h"

namespace layoutcheck {
namespace {

std::string name_of(const std::string& name, const std::string& file, const char* fallback) {
  return !name.empty() ? name : !file.empty() ? file : fallback;
}

std::string verdict(const MisreadReport& report, const std::string& producer,
                    const std::string& consumer) {
  const std::string elements = std::to_string(report.elements);
  if (report.misread == 0 && report.unresolved == 0) {
    if (report.row_mismatches.empty())
      return "**OK: the layouts agree.** All " + elements +
             " elements are read as written by a kernel built for " + markdown_code(consumer) +
             ".\n";
    return "**Misread: the rows are stepped differently.** One row agrees (all " + elements +
           " elements), every later row is read from the wrong place.\n";
  }
  std::string text = "**Misread: " + std::to_string(report.misread) + " of " + elements +
                     " elements (" + percent_of(report.misread, report.elements) + ")";
  if (report.unresolved > 0) text += ", " + std::to_string(report.unresolved) + " unresolved";
  return text + ".** A kernel built for " + markdown_code(consumer) + " fed " +
         markdown_code(producer) + " reads them as other elements.\n";
}

std::string field_table(const MisreadReport& report, const std::string& producer,
                        const std::string& consumer) {
  const bool layouts = report.structure.has_value();
  const bool unresolved = report.unresolved > 0;
  std::string text = "| field | elements | misread |";
  std::string rule = "|---|--:|--:|";
  if (unresolved) text += " unresolved |", rule += "--:|";
  if (layouts) {
    text +=
        " producer " + markdown_code(producer) + " | consumer " + markdown_code(consumer) + " |";
    rule += "---|---|";
  }
  text += "\n" + rule + "\n";
  for (std::size_t f = 0; f < report.fields.size(); ++f) {
    const FieldReport& field = report.fields[f];
    text += "| " + markdown_text(field.name) + " | " + std::to_string(field.elements) + " | " +
            std::to_string(field.misread) + " |";
    if (unresolved) text += " " + std::to_string(field.unresolved) + " |";
    if (layouts) {
      const auto structure =
          std::find_if(report.structure->fields.begin(), report.structure->fields.end(),
                       [&](const FieldStructure& s) { return s.field == field.name; });
      if (structure == report.structure->fields.end()) {
        text += " | |";
      } else {
        text += " " + markdown_code(structure->producer_layout) + " at " +
                std::to_string(structure->producer_offset) + " | " +
                markdown_code(structure->consumer_layout) + " at " +
                std::to_string(structure->consumer_offset) + " |";
      }
    }
    text += "\n";
  }
  return text;
}

std::string structure_list(const StructuralSummary& structure) {
  std::string text = "**Structure.**";
  if (!structure.buffer.empty()) text += " " + markdown_text(structure.buffer) + ".";
  text += "\n\n";
  for (const FieldStructure& field : structure.fields)
    text +=
        "- **" + markdown_text(field.field) + "**: " + markdown_text(describe_change(field)) + "\n";
  return text;
}

std::string runs_block(const MisreadReport& report, std::size_t max_runs) {
  const std::size_t shown = std::min(max_runs, report.runs.size());
  const std::string total = std::to_string(report.runs_total);
  std::string text = "<details><summary>";
  text += shown == static_cast<std::size_t>(report.runs_total)
              ? "The " + total + " misread run" + (report.runs_total == 1 ? "" : "s")
              : "The first " + std::to_string(shown) + " of " + total + " misread runs";
  text += "</summary>\n\n";
  if (shown > 0) {
    text += "| offsets | the producer holds | the consumer reads |\n|---|---|---|\n";
    for (std::size_t i = 0; i < shown; ++i) {
      const MisreadRun& run = report.runs[i];
      const std::string offsets =
          run.offset_end - run.offset_begin == 1
              ? std::to_string(run.offset_begin)
              : std::to_string(run.offset_begin) + "–" + std::to_string(run.offset_end - 1);
      text += "| " + offsets + " | " + markdown_code(run.producer) + " | " +
              markdown_code(run.consumer) + " |\n";
    }
  }
  const std::int64_t more = report.runs_total - static_cast<std::int64_t>(shown);
  if (more > 0)
    text +=
        "\n… and " + std::to_string(more) + " more (`layoutcheck diff --json` lists every run).\n";
  return text + "\n</details>\n";
}

// The tokens in another slot, a table row a group.
std::string token_moves_table(const TokenMoves& moves, std::size_t max_groups) {
  std::string text = "**Tokens.** " + std::to_string(moves.misplaced) + " of " +
                     std::to_string(moves.tokens) + " tokens of " + markdown_code(moves.field) +
                     " [" + markdown_text(join(moves.axes)) + "] are read from another slot, in " +
                     std::to_string(moves.groups_total) + " group" +
                     (moves.groups_total == 1 ? "" : "s") + " by how far they move.\n\n" +
                     "| tokens | move by (slots) | window coordinates | within | e.g. | producer "
                     "slot | consumer slot |\n|--:|--:|---|---|---|--:|--:|\n";
  const std::size_t shown = std::min(max_groups, moves.groups.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const TokenMoveGroup& group = moves.groups[i];
    std::vector<std::string> example;
    for (std::int64_t index : group.example) example.push_back(std::to_string(index));
    text += "| " + std::to_string(group.tokens) + " | " + (group.displacement > 0 ? "+" : "") +
            std::to_string(group.displacement) + " | " + markdown_text(mode_moves_text(group)) +
            " | " + markdown_code(token_box_text(moves.field, group.box_begin, group.box_end)) +
            " | " + markdown_code(moves.field + "[" + join(example, ",") + "]") + " | " +
            std::to_string(group.example_producer_slot) + " | " +
            std::to_string(group.example_consumer_slot) + " |\n";
  }
  const std::int64_t more = moves.groups_total - static_cast<std::int64_t>(shown);
  if (more > 0)
    text += "\n… and " + std::to_string(more) + " more group" + (more == 1 ? "" : "s") +
            " (`layoutcheck diff --json` lists the largest " + std::to_string(kMaxTokenGroups) +
            ").\n";
  return text;
}

}  // namespace

std::string report_to_markdown(const MisreadReport& report, const MarkdownReportOptions& options) {
  const std::string producer = name_of(report.producer, report.producer_file, "producer");
  const std::string consumer = name_of(report.consumer, report.consumer_file, "consumer");
  std::string text = "### layoutcheck diff: " + markdown_code(producer) + " → " +
                     markdown_code(consumer) + "\n\n" + verdict(report, producer, consumer) + "\n";
  const bool agree = report.misread == 0 && report.unresolved == 0;
  if (!agree) {
    text += field_table(report, producer, consumer) + "\n";
    if (report.structure && !report.structure->all_same())
      text += structure_list(*report.structure) + "\n";
    if (report.token_moves && report.token_moves->misplaced > 0)
      text += token_moves_table(*report.token_moves, options.max_runs) + "\n";
  }
  for (const std::string& rows : report.row_mismatches)
    text += "- rows: " + markdown_text(rows) + "\n";
  for (const std::string& note : report.notes) text += "- note: " + markdown_text(note) + "\n";
  if (!report.row_mismatches.empty() || !report.notes.empty()) text += "\n";
  if (report.runs_total > 0) text += runs_block(report, options.max_runs) + "\n";
  if (!options.picture.empty())
    text += "![" + markdown_text(producer + " -> " + consumer) + "](" + options.picture + ")\n";
  return text;
}

}  // namespace layoutcheck
