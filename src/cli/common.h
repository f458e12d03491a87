// Helpers shared by the subcommands: --set and --max-elements parsing, exit codes, and the check
// that standard output was really written.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck::cli {

enum ExitCode : int { kClean = 0, kFindings = 1, kInputError = 2 };

enum class OutputFormat { text, json, markdown };

// Binds "--format text|json|md" to format and "--json" (the same as --format json) to json.
void add_format_options(CLI::App* app, OutputFormat& format, bool& json);

// Binds "--set NAME=VALUE" (repeatable) to assignments.
void add_set_option(CLI::App* app, std::vector<std::string>& assignments);

// The whole text as one decimal integer that fits in 64 bits, else nullopt ("0x10", "1.5", "",
// "99999999999999999999"); CLI11 alone would read 0x10 as 16 and clamp the last to INT64_MAX.
std::optional<std::int64_t> whole_integer(std::string_view text);

// Option checks with plain messages (CLI11's own print the range as doubles, "not in range
// 0.000000 to 1797...", and call a non-number out of range):
//   "--layers: expected a whole number, got '0x10'" (ranges checked where the value is used)
CLI::Validator whole_number();
//   "--max-batch: expected an integer of at least 1, got '0'"
CLI::Validator integer_at_least(std::int64_t minimum);
CLI::Validator integer_between(std::int64_t minimum, std::int64_t maximum);
//   "--seed: expected an integer from 0 to 18446744073709551615, got '-1'"
CLI::Validator unsigned_integer();
//   "--tolerance: expected a finite number above 0, got 'nan'"
CLI::Validator finite_number_above(double minimum);
//   "--width: expected a finite number from 400 to 20000, got 'nan'"
CLI::Validator finite_number_between(double minimum, double maximum);

// Binds "--max-elements N" (positive), the cap on a contract's elements and row size, for every
// command that loads contracts: the cap's error message tells the user to raise it with this.
void add_max_elements_option(CLI::App* app, std::int64_t& max_elements);

// Turns the --set strings and the cap into LoadOptions; throws InputError on a malformed
// assignment.
LoadOptions load_options_from(const std::vector<std::string>& assignments,
                              std::int64_t max_elements = kDefaultElementCap);

// "-" on a command line: the contract comes from standard input, named "<stdin>" in messages
// ("<stdin>:12:7: error[overlap]: ..."). Standard input can be read once per run.
inline constexpr std::string_view kStandardInput = "-";
inline constexpr std::string_view kStandardInputName = "<stdin>";

// The file's text, or standard input's for "-"; InputError (rule "io") as read_file_capped (a
// missing file among them, so that --json reports it as JSON like any input error), at
// "<stdin>" for standard input, and when standard input is a terminal or was read already.
std::string read_contract_argument(const std::string& argument);
// The same for any text input of at most `cap` bytes: `what` names it ("profile"), `command` is
// the subcommand that reads it.
std::string read_text_argument(const std::string& argument, std::size_t cap,
                               const std::string& what, const std::string& command);
// The name diagnostics give the argument: the path, or "<stdin>".
std::string contract_argument_name(const std::string& argument);

// parse_contract_file / load_contract for a command-line argument that may be "-".
ParseResult parse_contract_argument(const std::string& argument, const LoadOptions& options);
Contract load_contract_argument(const std::string& argument, const LoadOptions& options);

// Where the contracts a case names by default live: $LAYOUTCHECK_CONTRACTS, else the source tree's.
std::filesystem::path contracts_folder();

// This program's own path (/proc/self/exe), to run it again as a child.
std::string self_executable();

// Writes `contents` to the file at `path`; InputError (rule "output") saying why when it cannot:
// "cannot write out/x.svg: No such file or directory".
void write_output_file(const std::string& path, std::string_view contents);
// The same error before the work, where the folder `path` would be written in is missing or not
// writable: a long diff or render is not done only to be thrown away.
void check_output_folder(const std::string& path);

// {"errors": [...]} on standard output: how every input error is told to a caller that asked for
// JSON (layoutcheck/render/diagnostic_json.h).
void print_errors_json(const std::vector<Diagnostic>& diagnostics);

// An input error a command finds itself rather than throws (a compiler log of many lines, kept
// as it is): "layoutcheck COMMAND: MESSAGE" and the log on stderr and, when `json`, the same as
// {"errors": [...]} on stdout, as main does for a thrown InputError. @post kInputError.
int report_input_error(bool json, const std::string& command, const std::string& message,
                       const std::string& log = "");

// Flushes standard output. @post exit_code when everything written to it arrived; else, with
// "layoutcheck: cannot write to standard output: REASON" on stderr, kInputError (a full disk or
// closed pipe must not pass for a clean run).
int finish_standard_output(int exit_code);

}  // namespace layoutcheck::cli
