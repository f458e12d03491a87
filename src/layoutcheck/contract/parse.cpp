// YAML -> Contract in one pass: each key is read, type-checked and (for expressions) evaluated
// against the symbols, which are resolved first. Problems are collected, not thrown, so one run
// reports everything it can; an expression that depends on a symbol that already failed is
// skipped rather than reported again.
#include "layoutcheck/contract/parse.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "layoutcheck/contract/join.h"
#include "layoutcheck/contract/resolve.h"
#include "layoutcheck/contract/utf8.h"
#include "layoutcheck/contract/yaml_tree.h"

namespace layoutcheck {
namespace {

using NodeKind = YamlNode::Kind;

struct Entry {
  const YamlNode* key;
  const YamlNode* value;
};

// A mapping's keys after the duplicate and unknown-key checks; first occurrence wins.
class MapView {
 public:
  const Entry* get(std::string_view key) const {
    const auto found = entries_.find(key);
    return found == entries_.end() ? nullptr : &found->second;
  }
  void add(std::string name, Entry entry) { entries_.emplace(std::move(name), entry); }
  // Keys an unknown key was taken to be a typo of: their absence is not reported again.
  std::vector<std::string> suggested;

 private:
  std::map<std::string, Entry, std::less<>> entries_;
};

std::string type_name(const YamlNode& node) {
  switch (node.kind) {
    case NodeKind::null:
      return "nothing (null)";
    case NodeKind::scalar:  // shortened: a hostile file must not make huge messages
      return "the scalar '" +
             (node.scalar.size() > 40 ? node.scalar.substr(0, 37) + "..." : node.scalar) + "'";
    case NodeKind::sequence:
      return "a list";
    case NodeKind::map:
      return "a mapping";
  }
  return "nothing";
}

// An expression-valued key as written ("2*K + 2*G*V"), for codegen; "" when absent.
std::string text_of(const Entry* entry) {
  return entry && entry->value->kind == NodeKind::scalar ? entry->value->scalar : std::string();
}

// A YAML number as a double ("0", "-1.5", "1e-3"); nullopt for anything else.
std::optional<double> number(const YamlNode& node) {
  if (node.kind != NodeKind::scalar || node.scalar.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(node.scalar.c_str(), &end);
  if (end != node.scalar.c_str() + node.scalar.size()) return std::nullopt;
  return value;
}

// Whether a padding fill is a value the buffer's dtype can hold: whole and in range for the
// integer types; for the float types finite and in range, or a NaN/infinity written as such
// (a sentinel), never a finite-looking literal that overflowed (1e400).
bool fill_fits(double value, const std::string& text, DType dtype) {
  auto integer_in = [&](double low, double high) {
    return std::isfinite(value) && value == std::floor(value) && value >= low && value <= high;
  };
  switch (dtype) {
    case DType::i8:
      return integer_in(-128, 127);
    case DType::u8:
      return integer_in(0, 255);
    case DType::i16:
      return integer_in(-32768, 32767);
    case DType::i32:
      return integer_in(-2147483648.0, 2147483647.0);
    case DType::i64:
      return integer_in(-9223372036854775808.0, 9223372036854775807.0);
    default:
      break;
  }
  if (!std::isfinite(value)) {
    std::string lower;
    for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos;
  }
  const double largest = dtype == DType::fp16   ? 65504.0
                         : dtype == DType::bf16 ? 3.3895313892515355e38
                         : dtype == DType::fp32 ? 3.4028234663852886e38
                                                : std::numeric_limits<double>::max();
  return std::fabs(value) <= largest;
}

bool is_identifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

class Reader {
 public:
  Reader(std::string file, const LoadOptions& options)
      : file_(std::move(file)), options_(options) {}

  std::vector<Diagnostic> diagnostics;

  std::optional<Contract> read(const YamlNode& root);

 private:
  // ---- locations and errors ----
  SourceLocation at(const YamlNode& node) const { return {file_, node.line, node.column}; }
  // A null value has no position of its own (yaml-cpp marks the next token): use its key.
  SourceLocation at(const Entry& entry) const {
    return entry.value->kind == NodeKind::null ? at(*entry.key) : at(*entry.value);
  }
  void error(SourceLocation where, std::string rule, std::string message, std::string fix = {}) {
    diagnostics.push_back(
        {std::move(where), Severity::error, std::move(rule), std::move(message), std::move(fix)});
  }
  void add(const InputError& failure) {
    diagnostics.insert(diagnostics.end(), failure.diagnostics().begin(),
                       failure.diagnostics().end());
  }

  // ---- typed access ----
  std::optional<MapView> map(const YamlNode& node, const SourceLocation& where,
                             const std::string& what, const std::vector<std::string>& allowed);
  const Entry* require(const MapView& view, const SourceLocation& where, const std::string& what,
                       const char* key);
  std::optional<std::string> string(const Entry* entry, const std::string& what);
  std::optional<Expression> expression(const Entry* entry, const std::string& what);
  std::optional<std::int64_t> value(const Entry* entry, const std::string& what);
  std::optional<std::int64_t> evaluate(const Expression& expression);
  std::optional<std::int64_t> positive(const Entry* entry, const std::string& what);
  std::optional<std::int64_t> non_negative(const Entry* entry, const std::string& what);
  template <class Read>
  void list(const Entry* entry, const std::string& what, Read&& read_item);

  // ---- sections ----
  void read_symbols(const Entry* entry, Contract& contract);
  std::optional<Field> read_field(const YamlNode& node);
  std::optional<Dim> read_dim(const YamlNode& node, const std::string& owner);
  std::optional<Mode> read_mode(const YamlNode& node, const std::string& owner);

  std::string file_;
  const LoadOptions& options_;
  SymbolTable symbols_;
  FailedSymbols failed_symbols_;
  // Fields named but dropped for an error of their own: what names them is not reported again.
  std::set<std::string, std::less<>> failed_fields_;
  std::string field_being_read_;
};

std::optional<MapView> Reader::map(const YamlNode& node, const SourceLocation& where,
                                   const std::string& what,
                                   const std::vector<std::string>& allowed) {
  if (node.kind != NodeKind::map) {
    error(where, "type", what + " must be a mapping, got " + type_name(node),
          "write it as 'key: value' lines (keys: " + join(allowed) + ")");
    return std::nullopt;
  }
  MapView view;
  for (const auto& [key, value] : node.entries) {
    if (key.kind != NodeKind::scalar) {
      error(at(key), "type", "keys of " + what + " must be plain names, got " + type_name(key));
      continue;
    }
    const std::string& name = key.scalar;
    if (const Entry* first = view.get(name)) {
      error(at(key), "duplicate-key",
            "duplicate key '" + name + "' in " + what + " (first at line " +
                std::to_string(at(*first->key).line) + ")",
            "remove one of the two");
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      const std::string guess = closest_name(name, allowed);
      view.suggested.push_back(guess);
      error(
          at(key), "unknown-key", "unknown key '" + name + "' in " + what,
          (guess.empty() ? "" : "did you mean '" + guess + "'? ") + "valid keys: " + join(allowed));
      continue;
    }
    view.add(name, {&key, &value});
  }
  return view;
}

const Entry* Reader::require(const MapView& view, const SourceLocation& where,
                             const std::string& what, const char* key) {
  const Entry* entry = view.get(key);
  const auto& typos = view.suggested;
  if (!entry && std::find(typos.begin(), typos.end(), key) == typos.end())
    error(where, "missing-key", what + " has no '" + key + "'", std::string("add '") + key + ":'");
  return entry;
}

std::optional<std::string> Reader::string(const Entry* entry, const std::string& what) {
  if (!entry) return std::nullopt;
  if (entry->value->kind != NodeKind::scalar) {
    error(at(*entry), "type", what + " must be a string, got " + type_name(*entry->value));
    return std::nullopt;
  }
  // Every string reaches terminals, reports and generated headers: an escape sequence in a name
  // would rewrite a reviewer's screen. Tabs and newlines are text; other control characters (C0,
  // DEL, C1 as UTF-8) are refused.
  const std::string& text = entry->value->scalar;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool c1 = byte == 0xC2 && i + 1 < text.size() &&
                    static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7F || c1) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02X",
                    c1 ? static_cast<unsigned>(static_cast<unsigned char>(text[i + 1])) : byte);
      error(at(*entry), "control-character",
            what + " holds the control character " + code + " (byte " + std::to_string(i + 1) +
                " of the string)",
            "remove it: names and descriptions are plain text");
      return std::nullopt;
    }
  }
  if (const std::optional<std::size_t> bad = first_invalid_utf8(text)) {
    error(at(*entry), "encoding",
          what + " is not UTF-8 text: byte " + std::to_string(*bad + 1) +
              " of the string does not begin a character",
          "save the file as UTF-8");
    return std::nullopt;
  }
  return text;
}

std::optional<Expression> Reader::expression(const Entry* entry, const std::string& what) {
  if (!entry) return std::nullopt;
  if (entry->value->kind != NodeKind::scalar) {
    error(at(*entry), "type",
          what + " must be an integer or an expression string, got " + type_name(*entry->value),
          "e.g. 128 or \"2*K\"");
    return std::nullopt;
  }
  SourceLocation where = at(*entry);
  // Quoted scalars are marked at the quote; single-line plain scalars at their first character.
  if (entry->value->quoted) ++where.column;
  try {
    return Expression::parse(entry->value->scalar, where);
  } catch (const InputError& failure) {
    add(failure);
    return std::nullopt;
  }
}

std::optional<std::int64_t> Reader::evaluate(const Expression& expression) {
  for (const std::string& name : expression.symbols())
    if (failed_symbols_.count(name)) return std::nullopt;  // already reported
  try {
    return expression.evaluate(symbols_);
  } catch (const InputError& failure) {
    add(failure);
    return std::nullopt;
  }
}

std::optional<std::int64_t> Reader::value(const Entry* entry, const std::string& what) {
  const std::optional<Expression> parsed = expression(entry, what);
  return parsed ? evaluate(*parsed) : std::nullopt;
}

std::optional<std::int64_t> Reader::positive(const Entry* entry, const std::string& what) {
  const std::optional<std::int64_t> result = value(entry, what);
  if (result && *result <= 0) {
    error(at(*entry), "size", what + " must be positive, got " + std::to_string(*result),
          "sizes are element counts of at least 1");
    return std::nullopt;
  }
  return result;
}

std::optional<std::int64_t> Reader::non_negative(const Entry* entry, const std::string& what) {
  const std::optional<std::int64_t> result = value(entry, what);
  if (result && *result < 0) {
    error(at(*entry), "negative", what + " must not be negative, got " + std::to_string(*result),
          "offsets and strides count elements forward from the start of the row");
    return std::nullopt;
  }
  return result;
}

template <class Read>
void Reader::list(const Entry* entry, const std::string& what, Read&& read_item) {
  if (!entry) return;
  if (entry->value->kind != NodeKind::sequence) {
    error(at(*entry), "type", what + " must be a list, got " + type_name(*entry->value),
          "write one '- ' item per line");
    return;
  }
  for (const YamlNode& item : entry->value->items) read_item(item);
}

void Reader::read_symbols(const Entry* entry, Contract& contract) {
  if (!entry) return;
  if (entry->value->kind != NodeKind::map) {
    error(at(*entry), "type", "symbols must be a mapping, got " + type_name(*entry->value),
          "write one 'NAME: value' line per symbol, e.g. 'H: 16' or 'G: HV / H'");
    return;
  }
  std::set<std::string> seen;
  for (const auto& [key, value] : entry->value->entries) {
    const Entry symbol_entry{&key, &value};
    const std::string name = key.kind == NodeKind::scalar ? key.scalar : "";
    if (key.kind == NodeKind::null) {
      error(at(key), "name",
            "a symbol named by a YAML null (null, Null, NULL, ~ or nothing): not a name",
            "quote it (\"NULL\": 1) or choose another name");
      continue;
    }
    if (!is_identifier(name)) {
      error(at(key), "name", "symbol name '" + name + "' is not a name ([A-Za-z_][A-Za-z0-9_]*)");
      continue;
    }
    if (!seen.insert(name).second) {
      error(at(key), "duplicate-key", "duplicate symbol '" + name + "'", "remove one of the two");
      continue;
    }
    Symbol symbol;
    symbol.name = name;
    symbol.where = at(key);
    const std::optional<Expression> parsed = expression(&symbol_entry, "symbol " + name);
    if (!parsed) {
      failed_symbols_.insert(name);
      continue;
    }
    if (parsed->symbols().empty()) {
      const std::optional<std::int64_t> number = evaluate(*parsed);
      if (!number) failed_symbols_.insert(name);
      symbol.value = number.value_or(0);
    } else {
      symbol.derived_from = *parsed;
    }
    contract.symbols.push_back(std::move(symbol));
  }
}

std::optional<Mode> Reader::read_mode(const YamlNode& node, const std::string& owner) {
  const std::optional<MapView> view =
      map(node, at(node), "a mode of " + owner, {"name", "size", "stride"});
  if (!view) return std::nullopt;
  Mode mode;
  mode.where = at(node);
  mode.name = string(view->get("name"), "mode name").value_or("");
  const std::string what =
      (mode.name.empty() ? "a mode" : "mode '" + mode.name + "'") + " of " + owner;
  const auto size = positive(require(*view, mode.where, what, "size"), "size of " + what);
  const auto stride = non_negative(require(*view, mode.where, what, "stride"), "stride of " + what);
  if (!size || !stride) return std::nullopt;
  mode.size = *size;
  mode.stride = *stride;
  mode.size_text = text_of(view->get("size"));
  mode.stride_text = text_of(view->get("stride"));
  return mode;
}

std::optional<Dim> Reader::read_dim(const YamlNode& node, const std::string& owner) {
  const std::optional<MapView> view =
      map(node, at(node), "a dim of " + owner,
          {"name", "size", "stride", "modes", "pad_before", "pad_after", "shift"});
  if (!view) return std::nullopt;
  Dim dim;
  dim.where = at(node);
  const std::optional<std::string> name =
      string(require(*view, dim.where, "a dim of " + owner, "name"), "dim name");
  dim.name = name.value_or("?");
  const std::string what = "dim '" + dim.name + "' of " + owner;
  bool ok = name.has_value();
  const Entry* size_entry = view->get("size");
  // A padded, shifted grid axis (contract.h, Dim): `size` is the real extent, the modes split
  // the padded one.
  const auto transform = [&](const char* key, std::int64_t& value, std::string& text) {
    const Entry* entry = view->get(key);
    if (!entry) return;
    const std::optional<std::int64_t> number = non_negative(entry, key + (" of " + what));
    ok = ok && number.has_value();
    value = number.value_or(0);
    text = text_of(entry);
  };
  transform("pad_before", dim.pad_before, dim.pad_before_text);
  transform("pad_after", dim.pad_after, dim.pad_after_text);
  transform("shift", dim.shift, dim.shift_text);
  std::int64_t pads = 0;
  if (__builtin_add_overflow(dim.pad_before, dim.pad_after, &pads)) {
    error(dim.where, "overflow", "the padding of " + what + " overflows 64-bit integers",
          "pad less than the axis holds");
    ok = false;
    pads = 0;
  }
  if (const Entry* modes = view->get("modes")) {
    if (const Entry* stride = view->get("stride"))
      error(at(*stride->key), "type", what + " has both 'modes' and 'stride'",
            "a split dim takes its strides from its modes: remove 'stride'");
    list(modes, "modes of " + what, [&](const YamlNode& item) {
      std::optional<Mode> mode = read_mode(item, what);
      if (mode) dim.modes.push_back(std::move(*mode));
      ok = ok && mode.has_value();
    });
    if (modes->value->kind == NodeKind::sequence && modes->value->items.empty()) {
      error(at(*modes), "type", "modes of " + what + " is empty", "list at least one mode");
      ok = false;
    }
    if (modes->value->kind != NodeKind::sequence) ok = false;
    std::map<std::string, int, std::less<>> mode_lines;
    for (const Mode& mode : dim.modes) {
      if (mode.name.empty()) continue;  // unnamed modes are told apart by position
      if (const auto [first, added] = mode_lines.emplace(mode.name, mode.where.line); !added)
        error(mode.where, "name",
              "mode name '" + mode.name + "' is used twice in " + what + " (first at line " +
                  std::to_string(first->second) + ")",
              "give every mode of a dim its own name");
    }
    // The padded size is the modes' product: it must fit in 64 bits whether or not `size`
    // states it, since every offset and position of the dim is computed from it.
    std::int64_t product = 1;
    std::string factors;
    bool overflow = false;
    for (const Mode& mode : dim.modes) {
      overflow = overflow || __builtin_mul_overflow(product, mode.size, &product);
      factors += (factors.empty() ? "" : "*") + std::to_string(mode.size);
    }
    if (overflow) {
      error(at(*modes), "overflow",
            "the modes of " + what + " multiply to " + factors + ", past 64-bit integers",
            "use smaller mode sizes");
      ok = false;
    }
    const std::optional<std::int64_t> declared = positive(size_entry, "size of " + what);
    std::int64_t padded = 0;
    if (ok && declared && (__builtin_add_overflow(*declared, pads, &padded) || product != padded))
      error(at(*size_entry), "size-mismatch",
            what + " declares size " + std::to_string(*declared) +
                (pads > 0 ? " and " + std::to_string(pads) + " slots of padding" : "") +
                " but its modes multiply to " + factors + " = " + std::to_string(product),
            pads > 0 ? "the modes split the padded axis: make them multiply to size + "
                       "pad_before + pad_after"
                     : "make the modes' sizes multiply to the dim's size, or drop 'size'");
  } else {
    Mode mode;
    mode.where = dim.where;
    const auto size = positive(require(*view, dim.where, what, "size"), "size of " + what);
    const auto stride =
        non_negative(require(*view, dim.where, what, "stride"), "stride of " + what);
    ok = ok && size && stride;
    if (size && __builtin_add_overflow(*size, pads, &mode.size)) {
      error(at(*size_entry), "overflow",
            "the padded size of " + what + " (" + std::to_string(*size) + " + " +
                std::to_string(pads) + ") overflows 64-bit integers",
            "use a smaller size or less padding");
      ok = false;
    }
    if (!size) mode.size = 1;
    mode.stride = stride.value_or(0);
    mode.size_text = pads > 0
                         ? "(" + text_of(size_entry) + ") + (" +
                               (dim.pad_before_text.empty() ? "0" : dim.pad_before_text) + ") + (" +
                               (dim.pad_after_text.empty() ? "0" : dim.pad_after_text) + ")"
                         : text_of(size_entry);
    mode.stride_text = text_of(view->get("stride"));
    dim.modes.push_back(mode);
  }
  if (!ok) return std::nullopt;
  if (dim.size() <= 0) {
    error(dim.where, "size",
          what + " has no real slot: its padded size " + std::to_string(dim.padded_size()) +
              " is all padding (" + std::to_string(pads) + ")",
          "pad less than the axis holds");
    return std::nullopt;
  }
  if (dim.shift >= dim.padded_size()) {
    error(at(*view->get("shift")), "size",
          "shift of " + what + " is " + std::to_string(dim.shift) +
              ", not less than its padded size " + std::to_string(dim.padded_size()),
          "a cyclic shift is taken modulo the padded size: use a smaller one");
    return std::nullopt;
  }
  return dim;
}

std::optional<Field> Reader::read_field(const YamlNode& node) {
  const std::optional<MapView> view =
      map(node, at(node), "a field", {"name", "description", "offset", "dims", "may_alias"});
  if (!view) return std::nullopt;
  Field field;
  field.where = at(node);
  field.offset_text = "0";
  const std::optional<std::string> name =
      string(require(*view, field.where, "a field", "name"), "field name");
  if (name && !is_identifier(*name))
    error(at(*view->get("name")), "name",
          "field name '" + *name + "' is not a name ([A-Za-z_][A-Za-z0-9_]*)");
  field.name = name.value_or("?");
  if (name) field_being_read_ = *name;
  const std::string what = "field '" + field.name + "'";
  field.description = string(view->get("description"), "description of " + what).value_or("");
  bool ok = name.has_value();
  if (const Entry* offset = view->get("offset")) {
    const auto value = non_negative(offset, "offset of " + what);
    ok = ok && value;
    field.offset = value.value_or(0);
    field.offset_text = text_of(offset);
  }
  const Entry* dims = require(*view, field.where, what, "dims");
  list(dims, "dims of " + what, [&](const YamlNode& item) {
    std::optional<Dim> dim = read_dim(item, what);
    if (dim) field.dims.push_back(std::move(*dim));
    ok = ok && dim.has_value();
  });
  if (dims && dims->value->kind == NodeKind::sequence && dims->value->items.empty())
    error(at(*dims), "type", "dims of " + what + " is empty", "list at least one dim");
  // Dim names index the field (explain, codegen's parameters): two alike make it ambiguous.
  std::map<std::string, int, std::less<>> dim_lines;
  for (const Dim& dim : field.dims)
    if (const auto [first, added] = dim_lines.emplace(dim.name, dim.where.line); !added)
      error(dim.where, "name",
            "dim name '" + dim.name + "' is used twice in " + what + " (first at line " +
                std::to_string(first->second) + ")",
            "give every dim of a field its own name");
  if (!dims || dims->value->kind != NodeKind::sequence || dims->value->items.empty()) ok = false;
  list(view->get("may_alias"), "may_alias of " + what, [&](const YamlNode& item) {
    if (item.kind == NodeKind::scalar)
      field.may_alias.push_back(item.scalar);
    else
      error(at(item), "type",
            "may_alias of " + what + " must list field names, got " + type_name(item));
  });
  if (!ok) return std::nullopt;
  return field;
}

std::optional<Contract> Reader::read(const YamlNode& root) {
  const std::vector<std::string> keys = {"layoutcheck", "name",    "buffer", "description",
                                         "dtype",       "symbols", "rows",   "row_size",
                                         "fields",      "padding", "gather"};
  const SourceLocation document{file_, 1, 1};
  if (root.kind == NodeKind::null) {
    error(document, "type", "the document is empty",
          "a contract is a mapping with keys " + join(keys));
    return std::nullopt;
  }
  const std::optional<MapView> view = map(root, document, "the contract", keys);
  if (!view) return std::nullopt;
  Contract contract;
  contract.file = file_;
  contract.where = document;

  if (const auto version =
          string(require(*view, document, "the contract", "layoutcheck"), "layoutcheck");
      version && (*version != "1" || view->get("layoutcheck")->value->quoted))
    error(at(*view->get("layoutcheck")), "version",
          "unsupported format version " +
              (view->get("layoutcheck")->value->quoted ? "\"" + *version + "\" (a string)"
                                                       : "'" + *version + "'") +
              "; this layoutcheck reads version 1",
          "write 'layoutcheck: 1'");
  contract.name = string(require(*view, document, "the contract", "name"), "name").value_or("");
  contract.buffer =
      string(require(*view, document, "the contract", "buffer"), "buffer").value_or("");
  contract.description = string(view->get("description"), "description").value_or("");
  if (const auto dtype = string(require(*view, document, "the contract", "dtype"), "dtype")) {
    if (const auto known = dtype_from_name(*dtype)) {
      contract.dtype = *known;
    } else {
      const std::vector<std::string> valid = {"bf16", "fp16", "fp32", "fp64", "i8",
                                              "u8",   "i16",  "i32",  "i64"};
      const std::string guess = closest_name(*dtype, valid);
      error(at(*view->get("dtype")), "dtype",
            "unknown dtype '" + *dtype + "' (valid: " + join(valid) + ")",
            guess.empty() ? "use one of the valid dtypes" : "did you mean '" + guess + "'?");
    }
  }

  read_symbols(view->get("symbols"), contract);
  symbols_ = resolve_symbols(contract.symbols, options_, file_, failed_symbols_, diagnostics);

  list(require(*view, document, "the contract", "fields"), "fields", [&](const YamlNode& item) {
    field_being_read_.clear();
    if (std::optional<Field> field = read_field(item))
      contract.fields.push_back(std::move(*field));
    else if (!field_being_read_.empty())
      failed_fields_.insert(field_being_read_);
  });
  const Entry* fields = view->get("fields");
  if (fields && fields->value->kind == NodeKind::sequence && fields->value->items.empty())
    error(at(*fields), "type", "fields is empty", "declare at least one field");
  // Field names unique and may_alias naming fields; a map keeps this linear in the field count.
  std::map<std::string, std::size_t, std::less<>> first_index;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < contract.fields.size(); ++i)
    if (first_index.emplace(contract.fields[i].name, i).second)
      names.push_back(contract.fields[i].name);
  for (std::size_t i = 0; i < contract.fields.size(); ++i) {
    const Field& field = contract.fields[i];
    if (const std::size_t first = first_index.at(field.name); first != i)
      error(field.where, "name",
            "field name '" + field.name + "' is used twice (first at line " +
                std::to_string(contract.fields[first].where.line) + ")",
            "give every field its own name");
    for (const std::string& other : field.may_alias)
      if (!first_index.count(other) && !failed_fields_.count(other))
        error(field.where, "may-alias",
              "may_alias of field '" + field.name + "' names '" + other +
                  "', which is not a field (fields: " + join(names) + ")");
  }

  list(view->get("padding"), "padding", [&](const YamlNode& item) {
    const auto region = map(item, at(item), "a padding region", {"name", "offset", "size", "fill"});
    if (!region) return;
    Padding padding;
    padding.where = at(item);
    padding.name =
        string(require(*region, padding.where, "a padding region", "name"), "padding name")
            .value_or("?");
    const std::string what = "padding '" + padding.name + "'";
    const auto offset =
        non_negative(require(*region, padding.where, what, "offset"), "offset of " + what);
    const auto size = positive(require(*region, padding.where, what, "size"), "size of " + what);
    if (const Entry* fill = region->get("fill")) {
      padding.fill = number(*fill->value);
      if (!padding.fill)
        error(at(*fill), "type",
              "fill of " + what + " must be a number, got " + type_name(*fill->value));
      else if (!fill_fits(*padding.fill, fill->value->scalar, contract.dtype))
        error(at(*fill), "fill",
              "fill " + fill->value->scalar + " of " + what + " is not a value of dtype " +
                  std::string(dtype_name(contract.dtype)),
              "write a value the buffer's dtype holds (whole and in range for integer types)");
    }
    if (!offset || !size) return;
    padding.offset = *offset;
    padding.size = *size;
    contract.padding.push_back(std::move(padding));
  });

  if (const Entry* gather = view->get("gather")) {
    if (const auto decl = map(*gather->value, at(*gather), "gather", {"field", "token"})) {
      GatherDecl declared;
      declared.where = at(*gather);
      declared.field =
          string(require(*decl, declared.where, "gather", "field"), "gather field").value_or("");
      declared.token =
          string(require(*decl, declared.where, "gather", "token"), "gather token").value_or("");
      const Field* field = contract.find_field(declared.field);
      if (!declared.field.empty() && !field && !failed_fields_.count(declared.field))
        error(at(*decl->get("field")), "gather",
              "gather names field '" + declared.field + "', which the contract does not have", "");
      else if (field && !declared.token.empty() &&
               (field->dims.empty() || field->dims.back().name != declared.token))
        error(at(*decl->get("token")), "gather",
              "gather's token dim '" + declared.token + "' is not the last dim of field '" +
                  declared.field + "'",
              "a token's channels are the field's innermost dim");
      contract.gather = std::move(declared);
    }
  }

  contract.row_size_where = document;
  if (const Entry* row_size = view->get("row_size")) {
    contract.row_size_declared = true;
    contract.row_size_where = at(*row_size);
    contract.row_size = positive(row_size, "row_size").value_or(0);
  }
  std::vector<bool> stride_declared;  // row strides default to row_size, known only later
  list(view->get("rows"), "rows", [&](const YamlNode& item) {
    const auto row = map(item, at(item), "a row dim", {"name", "stride"});
    if (!row) return;
    RowDim dim;
    dim.where = at(item);
    dim.name = string(require(*row, dim.where, "a row dim", "name"), "row dim name").value_or("?");
    const Entry* stride = row->get("stride");
    if (stride) dim.stride = positive(stride, "stride of row dim '" + dim.name + "'").value_or(0);
    stride_declared.push_back(stride != nullptr);
    contract.rows.push_back(std::move(dim));
  });
  if (has_errors(diagnostics)) return std::nullopt;
  resolve_sizes(contract, options_, diagnostics);
  for (std::size_t i = 0; i < contract.rows.size(); ++i)
    if (!stride_declared[i]) contract.rows[i].stride = contract.row_size;
  if (has_errors(diagnostics)) return std::nullopt;
  return contract;
}

}  // namespace

ParseResult parse_contract_text(std::string_view text, const std::string& file,
                                const LoadOptions& options) {
  Reader reader(file, options);
  ParseResult result;
  if (const std::optional<YamlNode> root = parse_yaml(text, file, reader.diagnostics))
    result.contract = reader.read(*root);
  result.diagnostics = std::move(reader.diagnostics);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.where.line, a.where.column) <
                            std::tie(b.where.line, b.where.column);
                   });
  if (has_errors(result.diagnostics)) result.contract.reset();
  return result;
}

}  // namespace layoutcheck
