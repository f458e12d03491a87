// One error model for the whole tool: every finding about an input names the file, line and
// column it comes from, says what is wrong and what would fix it.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace layoutcheck {

// 1-based line and column; line 0 means "the file as a whole" (or no file at all).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  // "qkvz.yaml:12:7", "qkvz.yaml", "<command line>" (a file so named), or "<input>" (no file)
  std::string str() const;
};

enum class Severity { error, warning, note };

const char* severity_name(Severity severity);  // "error", "warning", "note"

struct Diagnostic {
  SourceLocation where;
  Severity severity = Severity::error;
  std::string rule;     // short stable identifier, e.g. "overlap", "unknown-key"
  std::string message;  // what is wrong
  std::string fix;      // what would fix it (may be empty)

  // "qkvz.yaml:12:7: error[overlap]: V[0,0] and Q[1,0] both map to offset 128 (fix: ...)"
  std::string str() const;
};

bool has_errors(const std::vector<Diagnostic>& diagnostics);

// Text for a terminal: control characters (ESC, newlines inside a name from a file) as \xNN, so
// a hostile contract cannot move the cursor or forge output lines.
std::string printable(std::string_view text);

// The candidate closest to word by edit distance, if it is close enough to be a likely typo
// ("strdie" -> "stride"); "" otherwise. Used for "did you mean" hints.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

// Thrown for input the tool cannot go on with (malformed file, bad --set, unknown element).
// The CLI turns it into one clear line and exit code 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(Diagnostic diagnostic);
  explicit InputError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// Throws InputError for a bad option value: rule "usage", location "<command line>".
[[noreturn]] void throw_usage_error(std::string message, std::string fix = "");

}  // namespace layoutcheck
