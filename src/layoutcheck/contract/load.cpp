// Files -> contracts: reading a file, and load_contract = parse + every layout check, thrown as
// one InputError carrying all errors.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

// Contract files are small; anything past this is not a contract and is refused before parsing.
constexpr std::streamoff kMaxFileBytes = 16 << 20;

std::string read_text(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "io",
                                path + " is a directory, not a contract file", ""});
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "io", "cannot read " + path,
                                "check the path and its permissions"});
  if (in.tellg() > kMaxFileBytes)
    throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "io",
                                path + " is larger than 16 MiB; it is not a contract", ""});
  in.seekg(0);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ParseResult parse_contract_file(const std::string& path, const LoadOptions& options) {
  return parse_contract_text(read_text(path), path, options);
}

Contract load_contract_text(std::string_view text, const std::string& file,
                            const LoadOptions& options) {
  ParseResult parsed = parse_contract_text(text, file, options);
  if (!parsed.contract) throw InputError(std::move(parsed.diagnostics));
  std::vector<Diagnostic> errors;
  for (Diagnostic& diagnostic : check_contract(*parsed.contract))
    if (diagnostic.severity == Severity::error) errors.push_back(std::move(diagnostic));
  if (!errors.empty()) throw InputError(std::move(errors));
  return std::move(*parsed.contract);
}

Contract load_contract(const std::string& path, const LoadOptions& options) {
  return load_contract_text(read_text(path), path, options);
}

}  // namespace layoutcheck
