#include "common.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "layoutcheck/contract/expression.h"
#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/render/diagnostic_json.h"

namespace layoutcheck::cli {

void add_format_options(CLI::App* app, OutputFormat& format, bool& json) {
  const std::map<std::string, OutputFormat> names{
      {"text", OutputFormat::text}, {"json", OutputFormat::json}, {"md", OutputFormat::markdown}};
  CLI::Option* chosen = app->add_option("--format", format,
                                        "Output: text (default), json, or md (Markdown for a "
                                        "pull-request comment)")
                            ->transform(CLI::CheckedTransformer(names))
                            ->type_name("text|json|md");
  app->add_flag("--json", json, "The same as --format json")->excludes(chosen);
}

void add_set_option(CLI::App* app, std::vector<std::string>& assignments) {
  app->add_option("--set", assignments,
                  "Override a symbol's default, e.g. --set H=16 --set HV=32 (repeatable)")
      ->type_name("NAME=VALUE");
}

namespace {

// The whole text as one number of type T, nothing before or after it.
template <class T>
bool parse_whole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && stop == end && !text.empty();
}

CLI::Validator checked(std::string description, std::function<bool(const std::string&)> accepts) {
  return CLI::Validator(
      [description, accepts](std::string& input) -> std::string {
        return accepts(input) ? "" : "expected " + description + ", got '" + input + "'";
      },
      description);
}

}  // namespace

std::optional<std::int64_t> whole_integer(std::string_view text) {
  std::int64_t value = 0;
  if (!parse_whole(std::string(text), value)) return std::nullopt;
  return value;
}

CLI::Validator whole_number() {
  return checked("a whole number",
                 [](const std::string& input) { return whole_integer(input).has_value(); });
}

CLI::Validator integer_at_least(std::int64_t minimum) {
  return checked("an integer of at least " + std::to_string(minimum),
                 [minimum](const std::string& input) {
                   const std::optional<std::int64_t> value = whole_integer(input);
                   return value && *value >= minimum;
                 });
}

CLI::Validator integer_between(std::int64_t minimum, std::int64_t maximum) {
  return checked("an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum),
                 [minimum, maximum](const std::string& input) {
                   const std::optional<std::int64_t> value = whole_integer(input);
                   return value && *value >= minimum && *value <= maximum;
                 });
}

CLI::Validator unsigned_integer() {
  return checked(
      "an integer from 0 to " + std::to_string(std::numeric_limits<std::uint64_t>::max()),
      [](const std::string& input) {
        std::uint64_t value = 0;
        return input[0] != '-' && parse_whole(input, value);
      });
}

CLI::Validator finite_number_above(double minimum) {
  std::ostringstream bound;
  bound << minimum;
  return checked("a finite number above " + bound.str(), [minimum](const std::string& input) {
    double value = 0;
    return parse_whole(input, value) && std::isfinite(value) && value > minimum;
  });
}

CLI::Validator finite_number_between(double minimum, double maximum) {
  std::ostringstream bounds;
  bounds << minimum << " to " << maximum;
  return checked("a finite number from " + bounds.str(),
                 [minimum, maximum](const std::string& input) {
                   double value = 0;
                   return parse_whole(input, value) && std::isfinite(value) && value >= minimum &&
                          value <= maximum;
                 });
}

void add_max_elements_option(CLI::App* app, std::int64_t& max_elements) {
  app->add_option("--max-elements", max_elements,
                  "Cap on logical elements and row size per contract (default 2^26, at most "
                  "2^32 - 3)")
      ->check(integer_between(1, kMaxElementCap))
      ->type_name("N");
}

LoadOptions load_options_from(const std::vector<std::string>& assignments,
                              std::int64_t max_elements) {
  LoadOptions options;
  for (const std::string& text : assignments) {
    auto assignment = parse_symbol_assignment(text);
    // Two values for one size: which was meant is not for the tool to guess.
    for (const auto& [name, value] : options.overrides)
      if (name == assignment.first)
        throw_usage_error("--set " + name + " is given twice (" + std::to_string(value) + " and " +
                              std::to_string(assignment.second) + ")",
                          "give each size once");
    options.overrides.push_back(std::move(assignment));
  }
  options.element_cap = max_elements;
  return options;
}

void write_output_file(const std::string& path, std::string_view contents) {
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  if (out) out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (out) out.close();
  if (!out) {
    const int error = errno;
    throw InputError(Diagnostic{
        SourceLocation{path}, Severity::error, "output",
        "cannot write " + path + (error != 0 ? std::string(": ") + std::strerror(error) : ""),
        "check that the directory exists and is writable"});
  }
}

void check_output_folder(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  const std::string name = folder.empty() ? "." : folder.string();
  if (::access(name.c_str(), W_OK | X_OK) == 0) return;
  const int error = errno;
  throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "output",
                              "cannot write " + path + ": " + std::strerror(error),
                              "check that the directory exists and is writable"});
}

void print_errors_json(const std::vector<Diagnostic>& diagnostics) {
  std::cout << errors_to_json(diagnostics).dump() << "\n";
}

int report_input_error(bool json, const std::string& command, const std::string& message,
                       const std::string& log) {
  std::cerr << "layoutcheck " << command << ": " << message << (log.empty() ? "" : ":\n" + log)
            << "\n";
  if (json)
    print_errors_json(
        {Diagnostic{{}, Severity::error, command, log.empty() ? message : message + ":\n" + log, ""}});
  return kInputError;
}

int finish_standard_output(int exit_code) {
  // std::cout writes through stdout (synced with stdio): an error shows on either, at the latest
  // when the last buffered bytes are flushed here.
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && std::cout && !std::ferror(stdout)) return exit_code;
  std::cerr << "layoutcheck: cannot write to standard output: "
            << std::strerror(error != 0 ? error : EIO) << "\n";
  return kInputError;
}

std::string contract_argument_name(const std::string& argument) {
  return argument == kStandardInput ? std::string(kStandardInputName) : argument;
}

std::string read_contract_argument(const std::string& argument) {
  return read_text_argument(argument, kMaxContractBytes, "contract", "lint");
}

std::string read_text_argument(const std::string& argument, std::size_t cap,
                               const std::string& what, const std::string& command) {
  if (argument != kStandardInput) return read_file_capped(argument, cap, "a " + what);
  static bool read_already = false;  // a second "-" would find the stream drained
  const auto fail = [](std::string message, std::string fix) {
    throw InputError(Diagnostic{SourceLocation{std::string(kStandardInputName)}, Severity::error,
                                "io", std::move(message), std::move(fix)});
  };
  if (read_already)
    fail("standard input holds one " + what + " and was read already",
         "give the other " + what + " as a file");
  read_already = true;
  if (::isatty(STDIN_FILENO))
    fail("standard input is a terminal, not a " + what,
         "pipe a " + what + " in: ... | layoutcheck " + command + " -");
  try {
    return read_file_capped("/dev/stdin", cap, "a " + what);
  } catch (const InputError& error) {  // name the stream as the user gave it, not as /dev/stdin
    std::vector<Diagnostic> renamed = error.diagnostics();
    for (Diagnostic& diagnostic : renamed) {
      diagnostic.where.file = kStandardInputName;
      for (std::size_t at = diagnostic.message.find("/dev/stdin"); at != std::string::npos;
           at = diagnostic.message.find("/dev/stdin"))
        diagnostic.message.replace(at, 10, "standard input");
    }
    throw InputError(std::move(renamed));
  }
}

ParseResult parse_contract_argument(const std::string& argument, const LoadOptions& options) {
  return parse_contract_text(read_contract_argument(argument), contract_argument_name(argument),
                             options);
}

Contract load_contract_argument(const std::string& argument, const LoadOptions& options) {
  return load_contract_text(read_contract_argument(argument), contract_argument_name(argument),
                            options);
}

std::filesystem::path contracts_folder() {
  if (const char* folder = std::getenv("LAYOUTCHECK_CONTRACTS"); folder && *folder) return folder;
  return LAYOUTCHECK_SOURCE_CONTRACTS;
}

std::string self_executable() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find this program's path: " + error.message());
  return self.string();
}

}  // namespace layoutcheck::cli
