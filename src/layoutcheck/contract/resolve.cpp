#include "layoutcheck/contract/resolve.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

namespace layoutcheck {
namespace {

std::string join(const std::vector<std::string>& names, const char* separator = ", ") {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : separator) + name;
  return text;
}

void apply_overrides(std::vector<Symbol>& symbols, const LoadOptions& options,
                     const std::string& file, FailedSymbols& failed,
                     std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> names;
  for (const Symbol& symbol : symbols) names.push_back(symbol.name);
  const auto error = [&](std::string rule, std::string message, std::string fix) {
    diagnostics.push_back({SourceLocation{"<command line>"}, Severity::error, std::move(rule),
                           std::move(message), std::move(fix)});
  };
  for (const auto& [name, number] : options.overrides) {
    const std::string setting = "--set " + name + "=" + std::to_string(number);
    // Init-capture: clang before 16 (hipcc, the libFuzzer build) cannot capture a structured
    // binding.
    const auto symbol =
        std::find_if(symbols.begin(), symbols.end(),
                     [&wanted = name](const Symbol& s) { return s.name == wanted; });
    if (symbol == symbols.end()) {
      if (failed.count(name) || options.ignore_unknown_overrides) continue;
      const std::string guess = closest_name(name, names);
      error("unknown-symbol",
            setting + ": " + file + " has no symbol '" + name + "' (symbols: " + join(names) + ")",
            guess.empty() ? "set one of the contract's symbols" : "did you mean '" + guess + "'?");
    } else if (symbol->derived_from) {
      error("derived-symbol",
            setting + ": " + name + " is derived (" + name + " = " + symbol->derived_from->text() +
                ") and cannot be set",
            "set " + join(symbol->derived_from->symbols(), " or ") + " instead");
    } else {
      symbol->value = number;
      symbol->overridden = true;
      failed.erase(name);
    }
  }
}

}  // namespace

SymbolTable resolve_symbols(std::vector<Symbol>& symbols, const LoadOptions& options,
                            const std::string& file, FailedSymbols& failed,
                            std::vector<Diagnostic>& diagnostics) {
  apply_overrides(symbols, options, file, failed, diagnostics);
  SymbolTable table;
  for (const Symbol& symbol : symbols)
    if (!symbol.derived_from && !failed.count(symbol.name))
      table.emplace(symbol.name, symbol.value);
  // Derived symbols in dependency order, whatever order the file lists them in: each pass
  // computes those whose inputs are known (or are no symbol at all, which evaluate() reports).
  std::set<std::string, std::less<>> derived;
  for (const Symbol& symbol : symbols)
    if (symbol.derived_from) derived.insert(symbol.name);
  std::vector<Symbol*> pending;
  for (Symbol& symbol : symbols)
    if (symbol.derived_from) pending.push_back(&symbol);
  for (bool progress = true; progress && !pending.empty();) {
    progress = false;
    for (auto it = pending.begin(); it != pending.end();) {
      Symbol& symbol = **it;
      const std::vector<std::string> inputs = symbol.derived_from->symbols();
      const bool waits = std::any_of(inputs.begin(), inputs.end(), [&](const std::string& name) {
        return derived.count(name) && !table.count(name) && !failed.count(name);
      });
      if (waits) {
        ++it;
        continue;
      }
      it = pending.erase(it);
      progress = true;
      if (std::any_of(inputs.begin(), inputs.end(),
                      [&](const auto& n) { return failed.count(n); })) {
        failed.insert(symbol.name);
        continue;
      }
      try {
        symbol.value = symbol.derived_from->evaluate(table);
        table.emplace(symbol.name, symbol.value);
      } catch (const InputError& error) {
        diagnostics.insert(diagnostics.end(), error.diagnostics().begin(),
                           error.diagnostics().end());
        failed.insert(symbol.name);
      }
    }
  }
  // What is left waits on a cycle: report the symbols on it (each reaches itself), and let the
  // ones that only use them fail quietly, as a symbol using a failed one does.
  std::map<std::string, const Symbol*, std::less<>> waiting;
  for (const Symbol* symbol : pending) waiting.emplace(symbol->name, symbol);
  const auto reaches_itself = [&](const Symbol* start) {
    std::vector<std::string> stack = start->derived_from->symbols();
    std::set<std::string, std::less<>> seen;
    while (!stack.empty()) {
      const std::string name = stack.back();
      stack.pop_back();
      if (name == start->name) return true;
      const auto next = waiting.find(name);
      if (next == waiting.end() || !seen.insert(name).second) continue;
      for (const std::string& input : next->second->derived_from->symbols()) stack.push_back(input);
    }
    return false;
  };
  std::vector<std::string> cycle;
  for (const Symbol* symbol : pending)
    if (reaches_itself(symbol)) cycle.push_back(symbol->name);
  for (const Symbol* symbol : pending) {
    failed.insert(symbol->name);
    if (std::find(cycle.begin(), cycle.end(), symbol->name) == cycle.end()) continue;
    diagnostics.push_back({symbol->where, Severity::error, "undefined-symbol",
                           cycle.size() == 1
                               ? "symbol '" + symbol->name + "' is defined from itself"
                               : "symbol '" + symbol->name + "' depends on itself (symbols " +
                                     join(cycle) + " are defined from each other)",
                           "define " + (cycle.size() == 1 ? symbol->name : "one of them") +
                               " from numbers or from other symbols"});
  }
  return table;
}

void resolve_sizes(Contract& contract, const LoadOptions& options,
                   std::vector<Diagnostic>& diagnostics) {
  const auto error = [&](const SourceLocation& where, std::string rule, std::string message,
                         std::string fix) {
    diagnostics.push_back(
        {where, Severity::error, std::move(rule), std::move(message), std::move(fix)});
  };
  const std::string cap = std::to_string(options.element_cap);
  const std::string raise = "split the buffer, or raise the cap with --max-elements";
  std::int64_t total = 0;
  std::int64_t end = 0;  // highest used offset + 1
  bool ok = true;
  for (const Field& field : contract.fields) {
    std::int64_t count = 1;
    std::int64_t last = field.offset;  // strides are non-negative: the last offset is the largest
    bool overflow = false;
    for (const Dim& dim : field.dims)
      for (const Mode& mode : dim.modes) {
        std::int64_t reach = 0;
        overflow = overflow || __builtin_mul_overflow(count, mode.size, &count) ||
                   __builtin_mul_overflow(mode.size - 1, mode.stride, &reach) ||
                   __builtin_add_overflow(last, reach, &last);
      }
    if (overflow || count > options.element_cap) {
      ok = false;
      if (overflow)
        error(field.where, "overflow",
              "the sizes or offsets of field '" + field.name + "' overflow 64-bit integers",
              "use smaller sizes or strides");
      else
        error(field.where, "element-cap",
              "field '" + field.name + "' has " + std::to_string(count) +
                  " elements, over the cap of " + cap + " elements per row",
              raise);
      continue;
    }
    if (__builtin_add_overflow(total, count, &total)) total = INT64_MAX;
    end = std::max(end, last + 1);
  }
  if (ok && total > options.element_cap) {
    ok = false;
    error(contract.where, "element-cap",
          "the fields hold more than " + cap + " elements per row, over the cap", raise);
  }
  for (const Padding& padding : contract.padding) {
    std::int64_t padding_end = 0;
    if (__builtin_add_overflow(padding.offset, padding.size, &padding_end)) {
      ok = false;
      error(padding.where, "overflow", "padding '" + padding.name + "' ends past 64-bit offsets",
            "use a smaller offset or size");
    }
    end = std::max(end, padding_end);
  }
  if (!ok) return;
  if (!contract.row_size_declared) contract.row_size = end;
  if (contract.row_size > options.element_cap)
    error(contract.row_size_where, "element-cap",
          "the row spans " + std::to_string(contract.row_size) + " elements" +
              (contract.row_size_declared ? "" : " (highest used offset + 1)") +
              ", over the cap of " + cap,
          raise);
}

}  // namespace layoutcheck
