// The operator table of torch.profiler's key_averages().table(): a dashed line, the header, a
// dashed line, one row per operator, a dashed line, then "Self CPU time total: ...". The dashes
// give the columns' extents; every cell is the header's column by position, so names with spaces
// and the Input Shapes column read as they are.
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/profile/operator_kind.h"
#include "layoutcheck/profile/profile.h"

namespace layoutcheck {
namespace {

struct Line {
  int number;
  std::string_view text;
};

std::vector<Line> lines_of(std::string_view text) {
  std::vector<Line> lines;
  int number = 1;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({number++, line});
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

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

struct Column {
  std::size_t begin, end;  // end == npos: to the end of the line
  std::string name;
};

// The byte where the line's character number `characters` starts (UTF-8), or npos. Python pads
// the table's cells by characters, so a name with non-ASCII letters is wider in bytes.
std::size_t byte_of_character(std::string_view line, std::size_t characters) {
  if (characters == std::string_view::npos) return std::string_view::npos;
  for (std::size_t byte = 0; byte < line.size(); ++byte) {
    if ((static_cast<unsigned char>(line[byte]) & 0xC0) == 0x80) continue;  // continuation
    if (characters-- == 0) return byte;
  }
  return std::string_view::npos;
}

std::string cell(std::string_view line, const Column& column) {
  const std::size_t begin = byte_of_character(line, column.begin);
  if (begin == std::string_view::npos) return "";
  const std::size_t end = byte_of_character(line, column.end);
  return trimmed(line.substr(begin, end == std::string_view::npos ? end : end - begin));
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

}  // namespace

Profile parse_operator_table(std::string_view text, const std::string& file) {
  const std::vector<Line> lines = lines_of(text);
  std::size_t top = 0;
  while (top < lines.size() && !is_rule(lines[top].text)) ++top;
  if (top + 2 >= lines.size() || !is_rule(lines[top + 2].text))
    fail(file, top < lines.size() ? lines[top].number : 1,
         "no operator table here: expected a dashed line, a header and a dashed line",
         "print the table with prof.key_averages().table(...) and save that text");
  // Columns: the runs of dashes of the rule above the header.
  std::vector<Column> columns;
  const std::string_view rule = lines[top].text;
  for (std::size_t i = 0; i < rule.size();) {
    if (rule[i] != '-') {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < rule.size() && rule[i] == '-') ++i;
    columns.push_back({begin, i, ""});
  }
  columns.back().end = std::string_view::npos;
  const Line& header = lines[top + 1];
  for (Column& column : columns) column.name = cell(header.text, column);
  const auto find = [&](auto&& matches) -> const Column* {
    for (const Column& column : columns)
      if (matches(column.name)) return &column;
    return nullptr;
  };
  const Column* name = find([](const std::string& n) { return n == "Name"; });
  const Column* calls = find([](const std::string& n) { return n == "# of Calls"; });
  const Column* device = find(is_device_self);
  const Column* cpu = find([](const std::string& n) { return n == "Self CPU"; });
  const Column* shapes = find([](const std::string& n) { return n == "Input Shapes"; });
  if (!name || !calls || !device)
    fail(
        file, header.number,
        std::string("the table's header has no ") +
            (!name    ? "'Name'"
             : !calls ? "'# of Calls'"
                      : "device self-time ('Self CUDA')") +
            " column",
        "sort and print the device time: key_averages().table(sort_by=\"self_device_time_total\")");

  Profile profile;
  profile.source = "operator table";
  std::size_t at = top + 3;
  for (; at < lines.size() && !is_rule(lines[at].text); ++at) {
    const Line& line = lines[at];
    if (trimmed(line.text).empty()) continue;
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
    if (op.calls == 0 && op.device_us > 0)
      fail(file, line.number,
           "'# of Calls' of " + op.name + " is 0 but its device time is '" + device_time +
               "': no per-call time can come of it");
    if (cpu) op.cpu_us = microseconds(cell(line.text, *cpu)).value_or(0);
    if (shapes) {
      op.input_shapes = cell(line.text, *shapes);
      op.shapes = parse_shapes(op.input_shapes).value_or(std::vector<std::vector<std::int64_t>>{});
    }
    op.kind = operator_kind(op.name);
    profile.device_total_us += op.device_us;
    profile.operators.push_back(std::move(op));
  }
  if (at >= lines.size())
    fail(file, lines.back().number, "the table does not end with a dashed line",
         "save the whole table, its closing line and totals included");
  if (profile.operators.empty())
    fail(file, lines[at].number, "the table has no rows: nothing was profiled",
         "profile a run that launches work on the device");
  if (!std::isfinite(profile.device_total_us))
    fail(file, lines[at].number, "the rows' device times add up past what a double holds");
  const bool rows_have_time = profile.device_total_us > 0;
  for (std::size_t i = at + 1; i < lines.size(); ++i) {
    const std::string line = trimmed(lines[i].text);
    const auto colon = line.find(" time total: ");
    if (line.rfind("Self ", 0) != 0 || colon == std::string::npos) continue;
    if (!is_device_self(line.substr(0, colon))) continue;
    const std::optional<double> total = microseconds(line.substr(colon + 13));
    if (!total) fail(file, lines[i].number, "'" + line + "' does not end with a time");
    // Taken as given otherwise: the rows count a kernel's time twice (on its operator and on its
    // own row), and annotations not at all, so they add up to more or less than the total.
    if (*total == 0 && rows_have_time)
      fail(file, lines[i].number,
           "'" + line + "' is zero under rows that took device time: the table and its totals "
           "do not belong together",
           "save the table and its totals from one key_averages().table() call");
    profile.device_total_us = *total;
  }
  return profile;
}

}  // namespace layoutcheck
