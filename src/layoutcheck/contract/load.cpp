// Files -> contracts: reading a file, and load_contract = parse + every layout check, thrown as
// one InputError carrying all errors.
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/contract/read_file.h"

namespace layoutcheck {
namespace {

std::string read_text(const std::string& path) {
  return read_file_capped(path, kMaxContractBytes, "a contract");
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
