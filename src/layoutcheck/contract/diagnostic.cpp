#include "layoutcheck/contract/diagnostic.h"

#include <algorithm>

namespace layoutcheck {

std::string SourceLocation::str() const {
  std::string text = file.empty() ? std::string("<input>") : file;
  if (line > 0) {
    text.append(":").append(std::to_string(line));
    if (column > 0) text.append(":").append(std::to_string(column));
  }
  return text;
}

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "note";
  }
  return "error";
}

namespace {

std::string join_lines(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (!text.empty()) text += "\n";
    text += diagnostic.str();
  }
  return text;
}

}  // namespace

std::string Diagnostic::str() const {
  std::string text = printable(where.str()) + ": " + severity_name(severity);
  if (!rule.empty()) text += "[" + rule + "]";
  text += ": " + printable(message);
  if (!fix.empty()) text += " (fix: " + printable(fix) + ")";
  return text;
}

std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f)
      out += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
    else
      out += c;
  }
  return out;
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
}

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
  // Levenshtein distance, case-insensitive, one row at a time.
  auto distance = [&](const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t above = row[j];
        const std::size_t substitute = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
        row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
        diagonal = above;
      }
    }
    return row[b.size()];
  };
  std::string best;
  std::size_t best_distance = word.size() / 2 + 1;  // more edits than that is not a typo
  for (const std::string& candidate : candidates) {
    const std::size_t d = distance(word, candidate);
    if (d < best_distance) best = candidate, best_distance = d;
  }
  return best;
}

InputError::InputError(Diagnostic diagnostic)
    : InputError(std::vector<Diagnostic>{std::move(diagnostic)}) {}

InputError::InputError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_lines(diagnostics)), diagnostics_(std::move(diagnostics)) {}

void throw_usage_error(std::string message, std::string fix) {
  throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                              std::move(message), std::move(fix)});
}

}  // namespace layoutcheck
