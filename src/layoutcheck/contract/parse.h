// Reading contracts from YAML. The format is described in README.md ("Contract format") and
// contracts/contract.schema.json. Unknown keys, duplicate keys and wrong types are errors (yaml-cpp
// 0.7 accepts duplicate keys itself, so the parser checks them), each naming line and column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

struct LoadOptions {
  // --set NAME=VALUE, applied over the contract's defaults; setting a derived symbol
  // (G = HV / H) or an unknown one is an error.
  std::vector<std::pair<std::string, std::int64_t>> overrides;
  std::int64_t element_cap = kDefaultElementCap;
  // Linting many files with one --set: a file that does not declare the symbol ignores it
  // (the caller checks that some file declared it).
  bool ignore_unknown_overrides = false;
};

struct ParseResult {
  std::optional<Contract> contract;     // present when the document could be resolved
  std::vector<Diagnostic> diagnostics;  // every problem found, in file order
};

// Parses and resolves (evaluates all expressions); does not run the layout checks of check.h.
ParseResult parse_contract_text(std::string_view text, const std::string& file,
                                const LoadOptions& options = {});
ParseResult parse_contract_file(const std::string& path, const LoadOptions& options = {});

// Parse + all checks; throws InputError carrying every error diagnostic when the contract is not
// usable. Warnings are dropped; use lint for them.
Contract load_contract(const std::string& path, const LoadOptions& options = {});
Contract load_contract_text(std::string_view text, const std::string& file,
                            const LoadOptions& options = {});

}  // namespace layoutcheck
