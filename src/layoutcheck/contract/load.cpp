// Files -> contracts: reading a file, and load_contract = parse + every layout check, thrown as
// one InputError carrying all errors.
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

// Contract files are small; anything past this is not a contract and is refused before parsing.
constexpr std::streamoff kMaxFileBytes = 16 << 20;

// Reads as a stream, not by size, so pipes and process substitution (/dev/fd/N) work too.
std::string read_text(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "io",
                                path + " is a directory, not a contract file", ""});
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(Diagnostic{
        SourceLocation{path}, Severity::error, "io",
        "cannot read " + path + (errno != 0 ? std::string(": ") + std::strerror(errno) : ""),
        "check the path and its permissions"});
  std::string text;
  std::array<char, 65536> chunk{};
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (static_cast<std::streamoff>(text.size()) > kMaxFileBytes)
      throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "io",
                                  path + " is larger than 16 MiB; it is not a contract", ""});
  }
  if (in.bad())
    throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "io",
                                "reading " + path + " failed part way", ""});
  return text;
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
