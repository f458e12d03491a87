#include "layoutcheck/codegen/offset_header.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <string_view>

#include "layoutcheck/codegen/cpp_text.h"

namespace layoutcheck::codegen {
namespace {

// The names the header itself declares or relies on; a contract name equal to one would shadow
// or redefine it (a symbol 's' hides the Symbols parameter, 'Index' the template parameter).
bool is_generator_name(std::string_view name) {
  return name == "s" || name == "Index" || name == "Symbols" || name == "kContractName" ||
         name == "LC_CONTRACT_FN" || name == "lc_min" || name == "lc_max" ||
         name == "lc_ceil_div";
}

// The expression language's calls (min, max, ceil_div) become the header's own helpers.
bool is_call(std::string_view word) {
  return word == "min" || word == "max" || word == "ceil_div";
}

// Any text as identifier characters: "qwen3_5.qkvz" -> "qwen3_5_qkvz", "1x" -> "_1x".
std::string identifier_characters(std::string_view name) {
  std::string result;
  for (char c : name) result += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (result.empty() || std::isdigit(static_cast<unsigned char>(result[0]))) result = "_" + result;
  return result;
}

// THE mapping from a name in the contract to the identifier the header uses for it, wherever it
// appears (declarations and pasted expressions alike). A name that is a C++ keyword, one of the
// generator's own names, a standard header's macro (NULL, EOF, assert) or reserved-looking
// (leading '_', which macros such as __CUDACC__ use)
// gets a trailing '_': int -> int_. So does that name followed by underscores (int_ -> int__),
// which keeps the mapping one-to-one for identifiers: int and int_ never meet.
std::string cpp_identifier(std::string_view name) {
  std::string result = identifier_characters(name);
  const std::string_view stem =
      std::string_view(result).substr(0, result.find_last_not_of('_') + 1);
  if (stem.empty() || stem[0] == '_' || is_cpp_keyword(stem) || is_standard_macro(stem) ||
      is_generator_name(stem))
    result += '_';
  return result;
}

// An expression of the contract as C++: its symbol names through cpp_identifier, leading zeros
// dropped (C++ reads 010 as octal 8) and "--" (a contract's a - -b) spaced apart.
std::string cpp_expression(std::string_view text) {
  std::string code;
  for (std::size_t i = 0; i < text.size();) {
    const auto is_word = [&](std::size_t at) {
      return at < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_');
    };
    std::size_t end = i;
    while (is_word(end)) ++end;
    if (end == i) {
      if (text[i] == '-' && !code.empty() && code.back() == '-') code += ' ';
      code += text[i++];
      continue;
    }
    const std::string_view word = text.substr(i, end - i);
    std::size_t next = end;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
    if (is_call(word) && next < text.size() && text[next] == '(') {
      code += "lc_" + std::string(word);
    } else if (std::isdigit(static_cast<unsigned char>(word[0]))) {
      const std::size_t digits = std::min(word.find_first_not_of('0'), word.size() - 1);
      code += word.substr(digits);
    } else {
      code += cpp_identifier(word);
    }
    i = end;
  }
  return code;
}

// An expression as written, or its value when the parser kept no text.
std::string expression_text(const std::string& text, std::int64_t value) {
  return text.empty() ? std::to_string(value) : cpp_expression(text);
}

// Derived symbols in an order where each comes after the symbols it uses.
std::vector<const Symbol*> derived_in_dependency_order(const Contract& contract) {
  std::vector<const Symbol*> pending;
  std::set<std::string, std::less<>> known;
  for (const Symbol& symbol : contract.symbols) {
    if (symbol.derived_from)
      pending.push_back(&symbol);
    else
      known.insert(symbol.name);
  }
  std::vector<const Symbol*> ordered;
  while (!pending.empty()) {
    auto ready = std::find_if(pending.begin(), pending.end(), [&](const Symbol* symbol) {
      const auto inputs = symbol->derived_from->symbols();
      return std::all_of(inputs.begin(), inputs.end(),
                         [&](const std::string& input) { return known.count(input) > 0; });
    });
    if (ready == pending.end()) ready = pending.begin();  // a cycle cannot load; keep going
    known.insert((*ready)->name);
    ordered.push_back(*ready);
    pending.erase(ready);
  }
  return ordered;
}

// The names one generated function declares: the symbols' (fixed, the pasted expressions use
// them) and the generator's own parameters and locals, each kept distinct by a suffix, so dims
// or modes whose names meet ("hv" mode "r" and a dim "hv_r") still compile.
class LocalNames {
 public:
  explicit LocalNames(std::set<std::string, std::less<>> taken) : taken_(std::move(taken)) {}

  // `wanted` through cpp_identifier; while taken, with `suffix` (and then a count) appended.
  std::string claim(std::string_view wanted, std::string_view suffix) {
    const std::string base = cpp_identifier(wanted);
    std::string name = base;
    for (int count = 1; taken_.count(name) > 0; ++count)
      name = base + std::string(suffix) + (count == 1 ? "" : std::to_string(count));
    taken_.insert(name);
    return name;
  }

 private:
  std::set<std::string, std::less<>> taken_;
};

class HeaderWriter {
 public:
  HeaderWriter(const Contract& contract, const OffsetHeaderOptions& options)
      : contract_(contract), options_(options) {
    for (const Symbol& symbol : contract_.symbols)
      symbol_names_.insert(cpp_identifier(symbol.name));
  }

  std::string write() {
    write_preamble();
    write_symbols();
    for (const Field& field : contract_.fields) write_field(field);
    for (const Padding& padding : contract_.padding)
      out_ << "// padding '" << cpp_comment_text(padding.name) << "': " << padding.size
           << " elements at offset " << padding.offset << " (at the defaults)\n";
    out_ << "\n}  // namespace layoutcheck::contracts::" << namespace_ << "\n";
    return out_.str();
  }

 private:
  void write_preamble() {
    namespace_ = contract_identifier(contract_.name);
    out_
        << "// Generated by layoutcheck codegen from " << cpp_comment_text(options_.source_label)
        << " (contract " << cpp_comment_text(contract_.name) << ", buffer "
        << cpp_comment_text(contract_.buffer) << ", dtype " << dtype_name(contract_.dtype) << ").\n"
        << "// DO NOT EDIT: regenerate it from the contract with layoutcheck codegen, so a kernel\n"
        << "// addressing through it reads exactly what the reviewed contract says.\n"
        << "// Offsets are in elements from the start of one row.\n"
        << "#pragma once\n\n"
        << "#ifndef LC_CONTRACT_FN\n"
        << "#if defined(__HIPCC__) || defined(__CUDACC__) || defined(__HIPCC_RTC__) || "
           "defined(__CUDACC_RTC__)\n"
        << "#define LC_CONTRACT_FN __host__ __device__ constexpr inline\n"
        << "#else\n"
        << "#define LC_CONTRACT_FN constexpr inline\n"
        << "#endif\n"
        << "#endif\n\n"
        // Distinct contract names can meet in one namespace ("a.b" and "a_b"): the second such
        // header says so, instead of a wall of redefinitions.
        << "#ifdef LC_CONTRACT_NAMESPACE_" << namespace_ << "\n"
        << "#error layoutcheck codegen: two contracts share the namespace layoutcheck::contracts::"
        << namespace_ << " (this header is for contract " << cpp_comment_text(contract_.name)
        << "); give one of them another name\n"
        << "#endif\n"
        << "#define LC_CONTRACT_NAMESPACE_" << namespace_ << "\n\n"
        << "namespace layoutcheck::contracts::" << namespace_ << " {\n\n"
        << "inline constexpr const char* kContractName = " << cpp_string_literal(contract_.name)
        << ";\n\n";
    if (uses_calls())
      out_ << "// The contract expressions' min, max and ceil_div (b > 0, as lint checks).\n"
           << "template <class A, class B>\nLC_CONTRACT_FN decltype(A() + B()) lc_min(A a, B b) {\n"
           << "  return a < b ? a : b;\n}\n"
           << "template <class A, class B>\nLC_CONTRACT_FN decltype(A() + B()) lc_max(A a, B b) {\n"
           << "  return a < b ? b : a;\n}\n"
           << "template <class A, class B>\n"
           << "LC_CONTRACT_FN decltype(A() + B()) lc_ceil_div(A a, B b) {\n"
           << "  return a / b + (a > 0 && a % b != 0 ? 1 : 0);\n}\n\n";
  }

  // Whether any expression the header pastes calls min, max or ceil_div.
  bool uses_calls() const {
    std::vector<std::string_view> texts;
    for (const Symbol& symbol : contract_.symbols)
      if (symbol.derived_from) texts.push_back(symbol.derived_from->text());
    for (const Field& field : contract_.fields) {
      texts.push_back(field.offset_text);
      for (const Dim& dim : field.dims) {
        texts.insert(texts.end(), {dim.pad_before_text, dim.pad_after_text, dim.shift_text});
        for (const Mode& mode : dim.modes) texts.insert(texts.end(), {mode.size_text, mode.stride_text});
      }
    }
    return std::any_of(texts.begin(), texts.end(), [](std::string_view text) {
      return cpp_expression(text).find("lc_") != std::string::npos;
    });
  }

  void write_symbols() {
    out_ << "// The contract's symbols with its defaults. Derived symbols are computed from them.\n"
         << "template <class Index = long long>\n"
         << "struct Symbols {\n";
    for (const Symbol& symbol : contract_.symbols) {
      if (symbol.derived_from) continue;
      out_ << "  Index " << cpp_identifier(symbol.name) << " = " << symbol.value << ";";
      if (!symbol.description.empty()) out_ << "  // " << cpp_comment_text(symbol.description);
      out_ << "\n";
    }
    out_ << "};\n\n";
  }

  // Binds every symbol (plain and derived) as a local so expressions can be pasted as written.
  void write_symbol_bindings() {
    for (const Symbol& symbol : contract_.symbols) {
      if (symbol.derived_from) continue;
      const std::string name = cpp_identifier(symbol.name);
      out_ << "  [[maybe_unused]] const Index " << name << " = s." << name << ";\n";
    }
    for (const Symbol* symbol : derived_in_dependency_order(contract_))
      out_ << "  [[maybe_unused]] const Index " << cpp_identifier(symbol->name) << " = "
           << cpp_expression(symbol->derived_from->text()) << ";\n";
  }

  void write_field(const Field& field) {
    const std::string name = cpp_identifier(field.name);
    LocalNames locals(symbol_names_);
    std::vector<std::string> parameters;
    for (const Dim& dim : field.dims) parameters.push_back(locals.claim(dim.name, "_index"));

    // Comment: the logical element, and the mapping at the defaults in CuTe notation.
    out_ << "// " << field.name << "[";
    for (std::size_t i = 0; i < field.dims.size(); ++i)
      out_ << (i ? ", " : "") << cpp_comment_text(field.dims[i].name);
    out_ << "]: " << field.layout_string() << " @ " << field.offset << " at the defaults";
    if (!field.description.empty()) out_ << "\n// " << cpp_comment_text(field.description);
    out_ << "\n";

    out_ << "template <class Index>\n"
         << "LC_CONTRACT_FN Index offset_" << name << "(const Symbols<Index>& s";
    for (const std::string& parameter : parameters) out_ << ", Index " << parameter;
    out_ << ") {\n";
    write_symbol_bindings();

    std::vector<std::string> terms;
    terms.push_back("(" + expression_text(field.offset_text, field.offset) + ")");
    for (std::size_t d = 0; d < field.dims.size(); ++d) {
      const Dim& dim = field.dims[d];
      std::string index = parameters[d];
      if (dim.declares_transform()) {
        // A padded, shifted grid axis: the modes split the padded position, not the index.
        std::string padded;
        for (const Mode& mode : dim.modes)
          padded += (padded.empty() ? "(" : " * (") + expression_text(mode.size_text, mode.size) + ")";
        const std::string position = locals.claim(index + "_position", "_local");
        out_ << "  const Index " << position << " = ((" << index << " + ("
             << expression_text(dim.pad_before_text, dim.pad_before) << ") - ("
             << expression_text(dim.shift_text, dim.shift) << ")) % (" << padded << ") + ("
             << padded << ")) % (" << padded << ");\n";
        index = position;
      }
      if (dim.modes.size() == 1) {
        terms.push_back(index + " * (" +
                        expression_text(dim.modes[0].stride_text, dim.modes[0].stride) + ")");
        continue;
      }
      // A split dim: decompose the index over its modes, fastest first; the slowest mode takes
      // what is left (the index is in range by precondition).
      std::vector<std::string> mode_index;
      for (std::size_t m = 0; m < dim.modes.size(); ++m) {
        const std::string& mode = dim.modes[m].name;
        mode_index.push_back(locals.claim(
            index + "_" + (mode.empty() ? "m" + std::to_string(m) : identifier_characters(mode)),
            "_local"));
      }
      std::string rest = index;
      for (std::size_t m = 0; m + 1 < dim.modes.size(); ++m) {
        const std::string size = expression_text(dim.modes[m].size_text, dim.modes[m].size);
        out_ << "  const Index " << mode_index[m] << " = " << rest << " % (" << size << ");\n";
        const std::string next = m + 2 == dim.modes.size()
                                     ? mode_index[m + 1]
                                     : locals.claim(index + "_rest" + std::to_string(m), "_local");
        out_ << "  const Index " << next << " = " << rest << " / (" << size << ");\n";
        rest = next;
      }
      for (std::size_t m = 0; m < dim.modes.size(); ++m)
        terms.push_back(mode_index[m] + " * (" +
                        expression_text(dim.modes[m].stride_text, dim.modes[m].stride) + ")");
    }
    out_ << "  return ";
    for (std::size_t i = 0; i < terms.size(); ++i) out_ << (i ? " + " : "") << terms[i];
    out_ << ";\n}\n\n";

    // Element count: the product of the mode sizes.
    out_ << "template <class Index>\n"
         << "LC_CONTRACT_FN Index elements_" << name << "(const Symbols<Index>& s) {\n";
    write_symbol_bindings();
    out_ << "  return Index(1)";
    for (const Dim& dim : field.dims) {
      const bool padded =
          dim.pad_before != 0 || dim.pad_after != 0 || !dim.pad_before_text.empty() ||
          !dim.pad_after_text.empty();
      if (padded) out_ << " * (1";  // the padded size less the padding
      for (const Mode& mode : dim.modes)
        out_ << " * (" << expression_text(mode.size_text, mode.size) << ")";
      if (padded)
        out_ << " - (" << expression_text(dim.pad_before_text, dim.pad_before) << ") - ("
             << expression_text(dim.pad_after_text, dim.pad_after) << "))";
    }
    out_ << ";\n}\n\n";
  }

  const Contract& contract_;
  const OffsetHeaderOptions& options_;
  std::set<std::string, std::less<>> symbol_names_;
  std::string namespace_;
  std::ostringstream out_;
};

}  // namespace

std::string contract_identifier(const std::string& contract_name) {
  return cpp_identifier(contract_name);
}

std::string generate_offset_header(const Contract& contract, const OffsetHeaderOptions& options) {
  return HeaderWriter(contract, options).write();
}

}  // namespace layoutcheck::codegen
