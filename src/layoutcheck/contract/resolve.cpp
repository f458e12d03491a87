#include "layoutcheck/contract/resolve.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "layoutcheck/contract/join.h"

namespace layoutcheck {
namespace {

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

// The cycles among the unresolved derived symbols `left` (indices into the inputs' order): each
// strongly connected component with more than one member or a use of itself, its members in file
// order, the components in the order of their first member. Iterative Tarjan: a chain of 50 000
// symbols must not exhaust the stack.
std::vector<std::vector<std::size_t>> symbol_cycles(
    const std::vector<std::size_t>& left, const std::vector<std::vector<std::string>>& inputs,
    const std::map<std::string, std::size_t, std::less<>>& index, const std::vector<bool>& done) {
  const std::size_t n = inputs.size();
  constexpr std::size_t kUnseen = static_cast<std::size_t>(-1);
  std::vector<std::size_t> number(n, kUnseen), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<std::size_t> stack;
  std::vector<std::vector<std::size_t>> cycles;
  std::size_t counter = 0;
  const auto edges = [&](std::size_t v) {
    std::vector<std::size_t> next;
    for (const std::string& name : inputs[v])
      if (const auto found = index.find(name); found != index.end() && !done[found->second])
        next.push_back(found->second);
    return next;
  };
  struct Frame {
    std::size_t node;
    std::vector<std::size_t> next;
    std::size_t at = 0;
  };
  for (std::size_t root : left) {
    if (number[root] != kUnseen) continue;
    std::vector<Frame> frames;
    const auto enter = [&](std::size_t v) {
      number[v] = low[v] = counter++;
      stack.push_back(v);
      on_stack[v] = true;
      frames.push_back({v, edges(v)});
    };
    enter(root);
    while (!frames.empty()) {
      Frame& frame = frames.back();
      if (frame.at < frame.next.size()) {
        const std::size_t w = frame.next[frame.at++];
        if (number[w] == kUnseen)
          enter(w);
        else if (on_stack[w])
          low[frame.node] = std::min(low[frame.node], number[w]);
        continue;
      }
      const std::size_t v = frame.node;
      const bool uses_itself =
          std::find(frame.next.begin(), frame.next.end(), v) != frame.next.end();
      frames.pop_back();
      if (!frames.empty()) low[frames.back().node] = std::min(low[frames.back().node], low[v]);
      if (low[v] != number[v]) continue;
      std::vector<std::size_t> component;
      std::size_t w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        component.push_back(w);
      } while (w != v);
      if (component.size() > 1 || uses_itself) {
        std::sort(component.begin(), component.end());
        cycles.push_back(std::move(component));
      }
    }
  }
  std::sort(cycles.begin(), cycles.end());
  return cycles;
}

// More separate regions of grid padding than this is an error: each region is a name and a place
// in every report, and a layout scattering its padding element by element would cost gigabytes.
constexpr std::size_t kGridPaddingRegionCap = std::size_t{1} << 20;

// The slots of padded grid axes (Dim::pad_before, pad_after) that hold no element are padding of
// the row, filled with zero: a gather writes zero there. Found by walking the padded space, dims
// outermost first (no more positions than the element cap allows); contiguous slots merge into one
// region. Too many regions is an error.
void add_grid_padding(Contract& contract, std::vector<Diagnostic>& diagnostics) {
  std::size_t regions = 0;
  std::vector<Padding> added;
  for (const Field& field : contract.fields) {
    if (std::none_of(field.dims.begin(), field.dims.end(),
                     [](const Dim& dim) { return dim.pad_before != 0 || dim.pad_after != 0; }))
      continue;
    const std::size_t depth = field.dims.size();
    std::vector<std::vector<std::int64_t>> offset(depth);
    std::vector<std::vector<bool>> real(depth);
    for (std::size_t d = 0; d < depth; ++d) {
      const Dim& dim = field.dims[d];
      for (std::int64_t p = 0; p < dim.padded_size(); ++p) {
        offset[d].push_back(dim.offset_of_position(p));
        real[d].push_back(dim.index_at(p).has_value());
      }
    }
    std::vector<std::int64_t> slots;
    std::vector<std::size_t> counter(depth, 0);
    while (true) {
      std::int64_t at = field.offset;
      bool holds = true;
      for (std::size_t d = 0; d < depth; ++d) {
        at += offset[d][counter[d]];
        holds = holds && real[d][counter[d]];
      }
      if (!holds) slots.push_back(at);
      std::size_t level = depth;
      while (level > 0 && ++counter[level - 1] == offset[level - 1].size()) counter[--level] = 0;
      if (level == 0) break;
    }
    std::sort(slots.begin(), slots.end());
    slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
    for (std::size_t i = 0; i < slots.size();) {
      std::size_t j = i + 1;
      while (j < slots.size() && slots[j] == slots[j - 1] + 1) ++j;
      if (++regions > kGridPaddingRegionCap) {
        diagnostics.push_back({field.where, Severity::error, "padding-cap",
                               "the padded grids leave more than " +
                                   std::to_string(kGridPaddingRegionCap) +
                                   " separate regions of padding in the row",
                               "pad whole rows of the grid, not single elements"});
        return;
      }
      added.push_back(Padding{field.name + " grid padding", slots[i],
                              static_cast<std::int64_t>(j - i), 0.0, field.where, true});
      i = j;
    }
  }
  for (Padding& padding : added) contract.padding.push_back(std::move(padding));
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
  // Derived symbols in dependency order, whatever order the file lists them in (Kahn's algorithm:
  // linear in the symbols and their uses, so 50 000 symbols listed backwards resolve at once).
  std::map<std::string, std::size_t, std::less<>> index;  // derived symbol -> position in `order`
  std::vector<Symbol*> order;
  for (Symbol& symbol : symbols)
    if (symbol.derived_from && index.emplace(symbol.name, order.size()).second)
      order.push_back(&symbol);
  std::vector<std::vector<std::string>> inputs(order.size());
  std::vector<std::vector<std::size_t>> users(order.size());
  std::vector<std::size_t> waiting_on(order.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) {
    inputs[i] = order[i]->derived_from->symbols();
    for (const std::string& name : inputs[i])
      if (const auto input = index.find(name); input != index.end() && !failed.count(name)) {
        users[input->second].push_back(i);
        ++waiting_on[i];
      }
  }
  std::vector<std::size_t> ready;
  for (std::size_t i = order.size(); i-- > 0;)
    if (waiting_on[i] == 0) ready.push_back(i);  // popped in file order
  std::vector<bool> done(order.size(), false);
  while (!ready.empty()) {
    const std::size_t i = ready.back();
    ready.pop_back();
    done[i] = true;
    Symbol& symbol = *order[i];
    if (std::any_of(inputs[i].begin(), inputs[i].end(),
                    [&](const auto& n) { return failed.count(n); })) {
      failed.insert(symbol.name);
    } else {
      try {
        symbol.value = symbol.derived_from->evaluate(table);
        table.emplace(symbol.name, symbol.value);
      } catch (const InputError& error) {
        diagnostics.insert(diagnostics.end(), error.diagnostics().begin(),
                           error.diagnostics().end());
        failed.insert(symbol.name);
      }
    }
    for (std::size_t user : users[i])
      if (--waiting_on[user] == 0) ready.push_back(user);
  }
  // What is left waits on a cycle: report the symbols on each cycle (its strongly connected
  // component, found without recursion), a few names each, and let the ones that only use a
  // cycle fail quietly, as a symbol using a failed one does.
  std::vector<std::size_t> left;
  for (std::size_t i = 0; i < order.size(); ++i)
    if (!done[i]) left.push_back(i);
  const std::vector<std::vector<std::size_t>> cycles = symbol_cycles(left, inputs, index, done);
  for (std::size_t i : left) failed.insert(order[i]->name);
  constexpr std::size_t kNamed = 8;  // names listed, and members given a diagnostic, per cycle
  for (const std::vector<std::size_t>& cycle : cycles) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < cycle.size() && i < kNamed; ++i)
      names.push_back(order[cycle[i]]->name);
    const std::string members =
        join(names) +
        (cycle.size() > kNamed ? " and " + std::to_string(cycle.size() - kNamed) + " more" : "");
    for (std::size_t i = 0; i < cycle.size() && i < kNamed; ++i) {
      const Symbol& symbol = *order[cycle[i]];
      diagnostics.push_back({symbol.where, Severity::error, "undefined-symbol",
                             cycle.size() == 1
                                 ? "symbol '" + symbol.name + "' is defined from itself"
                                 : "symbol '" + symbol.name + "' depends on itself (symbols " +
                                       members + " are defined from each other)",
                             "define " + (cycle.size() == 1 ? symbol.name : "one of them") +
                                 " from numbers or from other symbols"});
    }
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
  // A cap set in code past the most a row can hold is held to that, so that no walk below runs
  // over more positions than lint could check.
  const std::int64_t element_cap = std::min(options.element_cap, kMaxElementCap);
  const std::string cap = std::to_string(element_cap);
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
    if (overflow || count > element_cap) {
      ok = false;
      if (overflow)
        error(field.where, "overflow",
              "the sizes or offsets of field '" + field.name + "' overflow 64-bit integers",
              "use smaller sizes or strides");
      else
        error(field.where, "element-cap",
              "field '" + field.name + "' has " + std::to_string(count) +
                  (std::any_of(field.dims.begin(), field.dims.end(),
                               [](const Dim& dim) {
                                 return dim.pad_before != 0 || dim.pad_after != 0;
                               })
                       ? " positions (its padded grid's slots counted)"
                       : " elements") +
                  ", over the cap of " + cap + " elements per row",
              raise);
      continue;
    }
    if (__builtin_add_overflow(total, count, &total)) total = INT64_MAX;
    end = std::max(end, last + 1);
  }
  if (ok && total > element_cap) {
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
  if (contract.row_size > element_cap) {
    error(contract.row_size_where, "element-cap",
          "the row spans " + std::to_string(contract.row_size) + " elements" +
              (contract.row_size_declared ? "" : " (highest used offset + 1)") +
              ", over the cap of " + cap,
          raise);
    return;
  }
  add_grid_padding(contract, diagnostics);
}

}  // namespace layoutcheck
