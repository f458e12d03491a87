#include "layoutcheck/render/misread_text.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "layoutcheck/contract/join.h"

namespace layoutcheck {
namespace {

std::string pad_left(const std::string& text, std::size_t width) {
  return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
}

std::string label(const std::string& name, const std::string& file, const char* fallback) {
  return !name.empty() ? name : !file.empty() ? file : fallback;
}

std::string run_line(const MisreadRun& run) {
  const std::int64_t last = run.offset_end - 1;
  const std::string where =
      run.offset_begin == last
          ? "offset " + std::to_string(last) + " holds "
          : "offsets " + std::to_string(run.offset_begin) + "-" + std::to_string(last) + " hold ";
  return where + run.producer + " in the producer, read as " + run.consumer + " by the consumer";
}

std::string field_table(const MisreadReport& report) {
  const bool with_unresolved = report.unresolved > 0;
  std::vector<std::vector<std::string>> rows{{"field", "elements", "misread"}};
  if (with_unresolved) rows[0].push_back("unresolved");
  for (const FieldReport& field : report.fields) {
    rows.push_back({field.name, std::to_string(field.elements), std::to_string(field.misread)});
    if (with_unresolved) rows.back().push_back(std::to_string(field.unresolved));
  }
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  std::string text;
  for (const auto& row : rows) {
    text += "  " + pad_right(row[0], widths[0]);  // names left, counts right-aligned
    for (std::size_t c = 1; c < row.size(); ++c) text += "  " + pad_left(row[c], widths[c]);
    text += '\n';
  }
  return text;
}

// Per field, both layouts side by side, then what changed:
//   structure, producer vs consumer (shape:stride at offset):
//     X  (64,2):(1,64) at 0  vs  (64,2):(2,1) at 0
//        mode permutation, p and c swap places (c,p -> p,c, slowest first): p stride 1 -> 2, ...
std::string structure_text(const StructuralSummary& structure) {
  std::size_t name_width = 0, producer_width = 0;
  for (const FieldStructure& field : structure.fields) {
    name_width = std::max(name_width, field.field.size());
    producer_width =
        std::max(producer_width, layout_at(field.producer_layout, field.producer_offset).size());
  }
  std::string text = "  structure, producer vs consumer (shape:stride at offset):\n";
  if (!structure.buffer.empty()) text += "    " + structure.buffer + "\n";
  for (const FieldStructure& field : structure.fields) {
    text += "    " + pad_right(field.field, name_width) + "  " +
            pad_right(layout_at(field.producer_layout, field.producer_offset), producer_width) +
            "  vs  " + layout_at(field.consumer_layout, field.consumer_offset) + "\n";
    text += "    " + std::string(name_width + 2, ' ') + describe_change(field) + "\n";
  }
  return text;
}

// The tokens in another slot, a line a group:
//   tokens of x [z, lat, lon]: 33120 of 33120 in another slot, 9 groups by how far they move
//     8280 tokens move +4602 slots: x[0:8, 0:46, 84:90], e.g. ...
std::string token_moves_text(const TokenMoves& moves, std::size_t max_groups) {
  std::string text = "  tokens of " + moves.field + " [" + join(moves.axes) +
                     "]: " + std::to_string(moves.misplaced) + " of " +
                     std::to_string(moves.tokens) + " in another slot, " +
                     std::to_string(moves.groups_total) + " group" +
                     (moves.groups_total == 1 ? "" : "s") + " by how far they move\n";
  const std::size_t shown = std::min(max_groups, moves.groups.size());
  std::int64_t listed = 0;
  for (std::size_t i = 0; i < shown; ++i) {
    text += "    " + token_group_text(moves, moves.groups[i]) + "\n";
    listed += moves.groups[i].tokens;
  }
  const std::int64_t more = moves.groups_total - static_cast<std::int64_t>(shown);
  if (more > 0)
    text += "    ... and " + std::to_string(more) + " more group" + (more == 1 ? "" : "s") + " (" +
            std::to_string(moves.misplaced - listed) + " tokens)\n";
  return text;
}

}  // namespace

std::string layout_at(const std::string& layout, std::int64_t offset) {
  return layout + " at " + std::to_string(offset);
}

std::string describe_change(const FieldStructure& field) {
  if (field.kind == LayoutChange::same)
    return field.classification.empty() ? "same layout" : field.classification;
  std::string text = field.classification.empty() ? "changed" : field.classification;
  for (std::size_t i = 0; i < field.changes.size(); ++i)
    text += (i == 0 ? ": " : ", ") + field.changes[i];
  return text;
}

std::string report_title(const MisreadReport& report) {
  return label(report.producer, report.producer_file, "producer") + " (producer) -> " +
         label(report.consumer, report.consumer_file, "consumer") + " (consumer)";
}

std::string report_to_text(const MisreadReport& report, std::size_t max_runs) {
  std::string text = report_title(report) + ": ";
  const std::string elements = std::to_string(report.elements);
  if (report.misread == 0 && report.unresolved == 0) {
    text += report.row_mismatches.empty()
                ? "the layouts agree, all " + elements + " elements are read as written\n"
                : "one row agrees (all " + elements +
                      " elements read as written), but the rows are stepped differently\n";
  } else {
    text += std::to_string(report.misread) + " of " + elements + " elements misread";
    if (report.unresolved > 0) text += ", " + std::to_string(report.unresolved) + " unresolved";
    text += "\n" + field_table(report);
    if (report.structure && !report.structure->all_same())
      text += structure_text(*report.structure);
    if (report.token_moves && report.token_moves->misplaced > 0)
      text += token_moves_text(*report.token_moves, max_runs);
    const std::size_t shown = std::min(max_runs, report.runs.size());
    for (std::size_t i = 0; i < shown; ++i) text += "  " + run_line(report.runs[i]) + "\n";
    const std::int64_t more = report.runs_total - static_cast<std::int64_t>(shown);
    if (more > 0)
      text += "  ... and " + std::to_string(more) + " more run" + (more == 1 ? "" : "s") + "\n";
    if (!report.unresolved_elements.empty()) {
      text += "  unresolved (no unique match):";
      for (const std::string& name : report.unresolved_elements) text += " " + name;
      const std::int64_t hidden =
          report.unresolved - static_cast<std::int64_t>(report.unresolved_elements.size());
      if (hidden > 0) text += " ... and " + std::to_string(hidden) + " more";
      text += "\n";
    }
  }
  for (const std::string& rows : report.row_mismatches) text += "  rows: " + rows + "\n";
  for (const std::string& note : report.notes) text += "  note: " + note + "\n";
  return text;
}

std::string percent_of(std::int64_t part, std::int64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return text;
}

std::string offsets_text(std::int64_t begin, std::int64_t end) {
  return end - begin == 1 ? "offset " + std::to_string(begin)
                          : "offsets " + std::to_string(begin) + "-" + std::to_string(end - 1);
}

std::string describe_run(const MisreadRun& run) {
  const bool one = run.offset_end - run.offset_begin == 1;
  return "the kernel reads " + run.consumer + " from " +
         offsets_text(run.offset_begin, run.offset_end) +
         (one ? ", which holds " : ", which hold ") + run.producer;
}

std::string pad_right(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

}  // namespace layoutcheck
