// The YAML-independent half of reading a contract: symbol values (defaults, --set, derived
// symbols) and the size limits that make every later offset computation overflow-free. The parser
// calls these; they report problems as diagnostics instead of throwing, so one run reports all.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck {

// Symbols whose value is unknown because their definition failed; expressions using them are
// skipped rather than reported again.
using FailedSymbols = std::set<std::string, std::less<>>;

// Applies options.overrides (setting an unknown or a derived symbol is an error, located at
// "<command line>"), then evaluates derived symbols in declaration order, each seeing the plain
// symbols and the derived ones before it. Returns the table the contract's expressions use.
SymbolTable resolve_symbols(std::vector<Symbol>& symbols, const LoadOptions& options,
                            const std::string& file, FailedSymbols& failed,
                            std::vector<Diagnostic>& diagnostics);

// @pre  sizes positive, strides and offsets non-negative (the parser checked them).
// @post element counts are at most options.element_cap, every offset fits in 64 bits, and
//       row_size is set (highest used offset + 1 when not declared) and at most the cap;
//       otherwise diagnostics say which field or region is at fault.
void resolve_sizes(Contract& contract, const LoadOptions& options,
                   std::vector<Diagnostic>& diagnostics);

}  // namespace layoutcheck
