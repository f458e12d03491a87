// Integer expressions in contracts and run manifests: decimal literals, symbol names,
// + - * / % and parentheses, and three functions for launch geometry: min(a, b), max(a, b) and
// ceil_div(a, b) (the smallest q with q*b >= a; b must be positive). Nothing else is evaluated;
// any other function name is an error naming its column. Arithmetic is 64-bit and checked:
// overflow is an error, and '/' must divide exactly ("HV / H" with HV = 50, H = 16 is an error),
// so divisibility rules hold by construction wherever a contract divides; ceil_div is the one
// rounding division, for grids ("ceil_div(H * P, 4)").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {

using SymbolTable = std::map<std::string, std::int64_t, std::less<>>;

class Expression {
 public:
  // @pre  text is the scalar as written; where is the location of its first character.
  // @post throws InputError (rule "expression") naming the column of the offending token.
  static Expression parse(const std::string& text, const SourceLocation& where);
  static Expression literal(std::int64_t value);

  // Evaluates with checked 64-bit arithmetic; throws InputError on an undefined symbol
  // (rule "undefined-symbol"), overflow ("overflow"), division by zero or inexact division
  // ("divisibility").
  std::int64_t evaluate(const SymbolTable& symbols) const;

  // Symbol names the expression mentions, in order of first use.
  std::vector<std::string> symbols() const;

  const std::string& text() const { return text_; }
  const SourceLocation& where() const { return where_; }

  // One step of the postfix program the text compiles to.
  struct Node {
    enum class Kind {
      number,
      symbol,
      add,
      subtract,
      multiply,
      divide,
      modulo,
      negate,
      min,       // min(a, b)
      max,       // max(a, b)
      ceil_div,  // ceil_div(a, b), b > 0
    } kind;
    std::int64_t value = 0;  // number
    std::string name;        // symbol
    int column = 0;          // 0-based column in text, for messages
    int span_begin = 0;      // the subexpression this node computes, text[span_begin, span_end)
    int span_end = 0;
  };

 private:
  std::string text_;
  SourceLocation where_;
  std::vector<Node> nodes_;  // postfix program
};

// "H=8" -> {"H", 8}; throws InputError (rule "usage") on anything else.
std::pair<std::string, std::int64_t> parse_symbol_assignment(const std::string& text);

}  // namespace layoutcheck
