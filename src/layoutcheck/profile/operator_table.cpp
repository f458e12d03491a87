// The operator table of torch.profiler's key_averages().table(): a dashed line, the header, a
// dashed line, one row per operator, a dashed line, then "Self CPU time total: ...". The dashes
// give the columns' extents; every cell is the header's column by position, so names with spaces
// and the Input Shapes column read as they are.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/profile/operator_kind.h"
#include "layoutcheck/profile/profile.h"

namespace layoutcheck {
namespace {

struct Line {
  int number = 0;
  std::string_view text;
};

// The text's lines one at a time, without their "\n" or "\r\n": a file of 64 MiB of newlines is
// read in one pass, never held as 64 million entries.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : rest_(text), done_(text.empty()) {}

  // The next line into `line`; false (and `line` kept) past the last one.
  bool next(Line& line) {
    if (done_) return false;
    const auto end = rest_.find('\n');
    line = {++number_, rest_.substr(0, end)};
    if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
    if (end == std::string_view::npos || end + 1 == rest_.size())
      done_ = true;
    else
      rest_.remove_prefix(end + 1);
    return true;
  }

 private:
  std::string_view rest_;
  bool done_;
  int number_ = 0;
};

bool is_rule(std::string_view line) {
  bool dash = false;
  for (char c : line) {
    if (c == '-')
      dash = true;
    else if (c != ' ')
      return false;
  }
  return dash;
}

std::string trimmed(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  const auto end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

constexpr std::size_t kMaxColumns = 256;

struct Column {
  std::size_t begin, end;  // end == npos: to the end of the line
  std::string name;
};

// Where each of `characters` (ascending, counted as Python counts them) begins in `line`, in
// bytes; npos past the line's end. Python pads the table by characters, and UTF-8 letters are
// wider in bytes.
std::vector<std::size_t> byte_offsets(std::string_view line,
                                      std::span<const std::size_t> characters) {
  std::vector<std::size_t> bytes(characters.size(), std::string_view::npos);
  std::size_t next = 0, character = 0;
  for (std::size_t byte = 0; byte < line.size() && next < characters.size(); ++byte) {
    if ((static_cast<unsigned char>(line[byte]) & 0xC0) == 0x80) continue;  // continuation
    while (next < characters.size() && characters[next] == character) bytes[next++] = byte;
    ++character;
  }
  return bytes;
}

// The cells of `line` under `columns` (left to right, apart), found in one walk of the line.
std::vector<std::string> cells(std::string_view line, std::span<const Column> columns) {
  std::vector<std::size_t> bounds;  // each column's first and past-last character
  for (const Column& column : columns) bounds.insert(bounds.end(), {column.begin, column.end});
  const std::vector<std::size_t> bytes = byte_offsets(line, bounds);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::size_t begin = bytes[2 * i], end = bytes[2 * i + 1];
    out.push_back(begin == std::string_view::npos
                      ? ""
                      : trimmed(line.substr(begin, end == std::string_view::npos
                                                       ? end
                                                       : end - begin)));
  }
  return out;
}

std::string cell(std::string_view line, const Column& column) {
  return cells(line, std::span(&column, 1)).front();
}

// The header's names, left to right: Python pads a name to its column but never cuts one, so a
// name wider than its dashes ("CUDA time avg" over 12) pushes the names after it along by the
// overflow. Names are apart by two spaces or more, and hold single spaces only.
std::vector<std::string> header_names(std::string_view header) {
  std::vector<std::string> names;
  std::size_t at = 0;
  while (at < header.size()) {
    const std::size_t begin = header.find_first_not_of(" \t", at);
    if (begin == std::string_view::npos) break;
    std::size_t end = begin;
    while (end < header.size() &&
           !(header[end] == '\t' ||
             (header[end] == ' ' && (end + 1 == header.size() || header[end + 1] == ' ' ||
                                     header[end + 1] == '\t'))))
      ++end;
    names.emplace_back(header.substr(begin, end - begin));
    at = end;
  }
  return names;
}

// The first of `characters` (ascending, counted as Python counts them) where `line` holds
// something other than a space; past the line's end counts as a space.
std::optional<std::size_t> first_not_blank(std::string_view line,
                                           const std::vector<std::size_t>& characters) {
  const std::vector<std::size_t> bytes = byte_offsets(line, characters);
  for (std::size_t i = 0; i < characters.size(); ++i)
    if (bytes[i] != std::string_view::npos && line[bytes[i]] != ' ' && line[bytes[i]] != '\t')
      return characters[i];
  return std::nullopt;
}

[[noreturn]] void fail(const std::string& file, int line, std::string message,
                       std::string fix = "") {
  throw InputError(Diagnostic{SourceLocation{file, line, 1}, Severity::error, "profile",
                              std::move(message), std::move(fix)});
}

// "35.244ms", "314.680us", "1.2s", "800ns" in microseconds.
std::optional<double> microseconds(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  if (digits == 0) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + digits, value);
  if (error != std::errc() || end != text.data() + digits) return std::nullopt;
  const std::string_view unit = text.substr(digits);
  double us = 0;
  if (unit == "us" || unit == "μs")
    us = value;
  else if (unit == "ms")
    us = value * 1e3;
  else if (unit == "s")
    us = value * 1e6;
  else if (unit == "ns")
    us = value * 1e-3;
  else
    return std::nullopt;
  if (!std::isfinite(us)) return std::nullopt;
  return us;
}

// The self-time column of the device: "Self CUDA", "Self Device", "Self XPU", ... not "Self CPU"
// and not a percentage.
bool is_device_self(const std::string& name) {
  return name.rfind("Self ", 0) == 0 && name != "Self CPU" && name.back() != '%' &&
         name.find("Mem") == std::string::npos;
}

// An operator's average per call counts its own time and its children's, so it is never below its
// self time per call; where it is (by more than the table's three decimals), the row's columns
// disagree, as in a table edited or pieced together from two profiles.
void add_note(Profile& profile, std::string note) {
  if (profile.notes.size() == kMaxProfileNotes)
    ++profile.notes_left_out;
  else
    profile.notes.push_back(std::move(note));
}

void note_average_below_self(Profile& profile, const Line& line, const Column& average,
                             const ProfiledOperator& op) {
  const std::string text = cell(line.text, average);
  const std::optional<double> average_us = microseconds(text);
  const double self_us = op.device_us / static_cast<double>(op.calls);
  if (!average_us || self_us <= *average_us * (1 + 1e-3) + 1e-3) return;
  char per_call[32];
  std::snprintf(per_call, sizeof per_call, "%.3f", self_us);
  add_note(profile, "line " + std::to_string(line.number) + ": " + printable(op.name) + ": '" +
                        average.name + "' is " + text + ", below its self time per call (" +
                        per_call + " µs), which an average counting the children too cannot " +
                        "be: the row's columns disagree (an edited table, or two profiles in " +
                        "one?); ranked by its self time");
}

}  // namespace

Profile parse_operator_table(std::string_view text, const std::string& file) {
  LineReader lines(text);
  Line top, header, below_header;
  bool found = false;
  while (!found && lines.next(top)) found = is_rule(top.text);
  if (!found || !lines.next(header) || !lines.next(below_header) || !is_rule(below_header.text))
    fail(file, found ? top.number : 1,
         "no operator table here: expected a dashed line, a header and a dashed line",
         "print the table with prof.key_averages().table(...) and save that text");
  // Columns: the runs of dashes of the rule above the header.
  std::vector<Column> columns;
  const std::string_view rule = top.text;
  for (std::size_t i = 0; i < rule.size();) {
    if (rule[i] != '-') {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < rule.size() && rule[i] == '-') ++i;
    // A real table has a dozen columns; a rule of millions of dashes between spaces would hold
    // gigabytes of them.
    if (columns.size() == kMaxColumns)
      fail(file, top.number,
           "the dashed line above the header has more than " + std::to_string(kMaxColumns) +
               " runs of dashes: not the columns of an operator table",
           "print the table with prof.key_averages().table(...) and save that text");
    columns.push_back({begin, i, ""});
  }
  columns.back().end = std::string_view::npos;
  // As PyTorch prints it, names two spaces apart; a table made by hand with one space between
  // its columns is read by the dashes.
  std::vector<std::string> names = header_names(header.text);
  if (names.size() != columns.size()) names = cells(header.text, columns);
  for (std::size_t i = 0; i < columns.size(); ++i) columns[i].name = names[i];
  const auto find = [&](auto&& matches) -> const Column* {
    for (const Column& column : columns)
      if (matches(column.name)) return &column;
    return nullptr;
  };
  const Column* name = find([](const std::string& n) { return n == "Name"; });
  const Column* calls = find([](const std::string& n) { return n == "# of Calls"; });
  const Column* device = find(is_device_self);
  // The CPU time with children (what a copy or a sync costs the host) where the table has it.
  const Column* cpu_total = find([](const std::string& n) { return n == "CPU total"; });
  const Column* cpu =
      cpu_total ? cpu_total : find([](const std::string& n) { return n == "Self CPU"; });
  const Column* shapes = find([](const std::string& n) { return n == "Input Shapes"; });
  // The device's average per call ("CUDA time avg"): its total, children included, ÷ calls.
  const Column* average = find([](const std::string& n) {
    const std::string_view suffix = " time avg";
    return n.size() > suffix.size() && n.ends_with(suffix) && !n.starts_with("CPU");
  });
  if (!name || !calls || !device)
    fail(
        file, header.number,
        std::string("the table's header has no ") +
            (!name    ? "'Name'"
             : !calls ? "'# of Calls'"
                      : "device self-time ('Self CUDA')") +
            " column",
        "sort and print the device time: key_averages().table(sort_by=\"self_device_time_total\")");

  // Where a row's cells that are read must be blank on either side: Python pads each value to
  // its column, so text there is a cell spilled into its neighbour, its number cut in two.
  std::vector<std::size_t> read_bounds;
  for (const Column* column : {name, calls, device, cpu, shapes, average}) {
    if (column == nullptr) continue;
    if (column->begin > 0) read_bounds.push_back(column->begin - 1);
    if (column->end != std::string_view::npos) read_bounds.push_back(column->end);
  }
  std::sort(read_bounds.begin(), read_bounds.end());
  Profile profile;
  profile.source = "operator table";
  profile.cpu_column = cpu ? cpu->name : "";
  // A table grouped by stack (group_by_stack_n) lists an operator and shape once per call site:
  // its rows are added into one, as the trace's events are.
  std::map<std::pair<std::string, std::string>, std::size_t> row_of;
  Line line = below_header;
  bool closed = false;
  while (!closed && lines.next(line)) {
    if (is_rule(line.text)) {
      closed = true;
      continue;
    }
    if (trimmed(line.text).empty()) continue;
    if (const auto spilled = first_not_blank(line.text, read_bounds))
      fail(file, line.number,
           "text at character " + std::to_string(*spilled + 1) +
               " runs across the edge of a column this reads: a cell wider than its column, "
               "read cut in two",
           "save the table as key_averages().table() printed it, unedited");
    // A row of the stack's source locations alone (with_stack, group_by_stack_n): no operator.
    if (cell(line.text, *name).empty() && cell(line.text, *calls).empty() &&
        cell(line.text, *device).empty())
      continue;
    ProfiledOperator op;
    op.name = cell(line.text, *name);
    if (op.name.empty()) fail(file, line.number, "a row without a name");
    const std::string count = cell(line.text, *calls);
    const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), op.calls);
    if (error != std::errc() || end != count.data() + count.size() || op.calls < 0)
      fail(file, line.number, "'# of Calls' of " + op.name + " is '" + count + "', not a count");
    const std::string device_time = cell(line.text, *device);
    const std::optional<double> device_us = microseconds(device_time);
    if (!device_us)
      fail(file, line.number,
           "'" + device->name + "' of " + op.name + " is '" + device_time +
               "', not a time (a number with s, ms, us or ns)");
    op.device_us = *device_us;
    if (op.device_us > kMaxProfiledMicroseconds)
      fail(file, line.number,
           "'" + device->name + "' of " + op.name + " is '" + device_time +
               "', more than a day: not the time of a profiled run");
    if (op.calls == 0 && op.device_us > 0)
      fail(file, line.number,
           "'# of Calls' of " + op.name + " is 0 but its device time is '" + device_time +
               "': no per-call time can come of it");
    if (cpu) {
      op.cpu_us = microseconds(cell(line.text, *cpu)).value_or(0);
      if (op.cpu_us > kMaxProfiledMicroseconds)
        fail(file, line.number,
             "'" + cpu->name + "' of " + op.name + " is more than a day: not the time of a "
             "profiled run");
    }
    if (shapes) {
      op.input_shapes = cell(line.text, *shapes);
      op.shapes = parse_shapes(op.input_shapes).value_or(std::vector<std::vector<std::int64_t>>{});
    }
    op.kind = operator_kind(op.name);
    if (average && op.calls > 0) note_average_below_self(profile, line, *average, op);
    profile.device_total_us += op.device_us;
    // A name or shapes the table cut to its column ("...") may stand for several: kept apart.
    const bool cut = op.name.ends_with("...") || op.input_shapes.ends_with("...");
    const auto known = cut ? row_of.end() : row_of.find({op.name, op.input_shapes});
    if (known != row_of.end()) {
      ProfiledOperator& same = profile.operators[known->second];
      same.calls += op.calls;
      same.device_us += op.device_us;
      same.cpu_us += op.cpu_us;
      continue;
    }
    if (profile.operators.size() == kMaxProfiledOperators)
      fail(file, line.number,
           "more than " + std::to_string(kMaxProfiledOperators) +
               " operators (rows of another name or input shapes): not a profile of a model",
           "print the table of a few steps of the model");
    if (!cut) row_of.emplace(std::make_pair(op.name, op.input_shapes), profile.operators.size());
    profile.operators.push_back(std::move(op));
  }
  if (!closed)
    fail(file, line.number, "the table does not end with a dashed line",
         "save the whole table, its closing line and totals included");
  if (profile.operators.empty())
    fail(file, line.number, "the table has no rows: nothing was profiled",
         "profile a run that launches work on the device");
  if (profile.device_total_us == 0)
    fail(file, line.number,
         "no row took device time ('" + device->name + "' is 0 on every row): nothing to rank",
         "profile a run that launches work on the device");
  for (Line after; lines.next(after);) {
    // A dashed line, a line and a dashed line: another table's head. A dashed line alone is the
    // log's own and is passed over, as any other text after the table.
    if (is_rule(after.text)) {
      LineReader ahead = lines;
      Line second_header, second_rule;
      if (ahead.next(second_header) && ahead.next(second_rule) && is_rule(second_rule.text) &&
          !trimmed(second_header.text).empty())
        fail(file, after.number, "a second table begins here: which one to rank is not clear",
             "save one key_averages().table() per file");
      continue;
    }
    const std::string line = trimmed(after.text);
    const auto colon = line.find(" time total: ");
    if (line.rfind("Self ", 0) != 0 || colon == std::string::npos) continue;
    if (!is_device_self(line.substr(0, colon))) continue;
    const std::optional<double> total = microseconds(line.substr(colon + 13));
    if (!total) fail(file, after.number, "'" + line + "' does not end with a time");
    if (*total > kMaxProfiledMicroseconds)
      fail(file, after.number, "'" + line + "' is more than a day: not the time of a profiled run");
    // Taken as given otherwise: the rows count a kernel's time twice (on its operator and on its
    // own row), and annotations not at all, so they add up to more or less than the total.
    if (*total == 0)
      fail(file, after.number,
           "'" + line + "' is zero under rows that took device time: the table and its totals "
           "do not belong together",
           "save the table and its totals from one key_averages().table() call");
    const auto longest = std::max_element(profile.operators.begin(), profile.operators.end(),
                                          [](const ProfiledOperator& a, const ProfiledOperator& b) {
                                            return a.device_us < b.device_us;
                                          });
    // An operator or kernel row never takes more than the total; a user annotation
    // (record_function, ProfilerStep*) can, since PyTorch leaves annotations out of the total
    // (2.5 on) while their rows span the device's idle time too. Said, not refused.
    if (longest->device_us > *total * 1.001 + 0.001) {
      char row_time[32];
      std::snprintf(row_time, sizeof row_time, "%.3f", longest->device_us);
      add_note(profile, "line " + std::to_string(after.number) + ": '" + line +
                            "' is less than the device time of " + printable(longest->name) +
                            " (" + row_time + " µs), so its share is past 100 %: a user " +
                            "annotation (record_function, ProfilerStep*), which the total leaves " +
                            "out and whose row counts the device's idle time, or a table and " +
                            "totals that do not belong together");
    }
    profile.device_total_us = *total;
  }
  return profile;
}

}  // namespace layoutcheck
