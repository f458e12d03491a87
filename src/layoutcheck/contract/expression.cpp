// Integer expressions: a recursive-descent parser compiling to a postfix program, and a checked
// 64-bit stack evaluator. Grammar (usual precedence, left associative):
//   expr  := term (('+' | '-') term)*
//   term  := unary (('*' | '/' | '%') unary)*
//   unary := '-' unary | primary
//   primary := integer | identifier | call | '(' expr ')'
//   call := ('min' | 'max' | 'ceil_div') '(' expr ',' expr ')'
#include "layoutcheck/contract/expression.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <limits>

namespace layoutcheck {
namespace {

using Kind = Expression::Node::Kind;

bool is_identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Location of column `column` (0-based) of an expression whose first character is at `where`.
SourceLocation at_column(const SourceLocation& where, int column) {
  SourceLocation location = where;
  if (location.line > 0 && location.column > 0) location.column += column;
  return location;
}

[[noreturn]] void fail(const SourceLocation& where, int column, std::string rule,
                       std::string message, std::string fix = {}) {
  throw InputError(Diagnostic{at_column(where, column), Severity::error, std::move(rule),
                              std::move(message), std::move(fix)});
}

struct Span {
  int begin = 0;
  int end = 0;
};

class Parser {
 public:
  Parser(const std::string& text, const SourceLocation& where) : text_(text), where_(where) {}

  std::vector<Expression::Node> run() {
    skip_space();
    if (at_end())
      fail(where_, 0, "expression", "empty expression",
           "write an integer or a formula such as 2*H*K");
    expr();
    skip_space();
    if (!at_end())
      fail(where_, position_, "expression",
           "unexpected '" + std::string(1, text_[position_]) + "' in expression '" + text_ + "'",
           "expressions use integers, symbol names, + - * / %, parentheses and min, max, "
           "ceil_div");
    return std::move(nodes_);
  }

 private:
  bool at_end() const { return position_ >= static_cast<int>(text_.size()); }
  char peek() const { return at_end() ? '\0' : text_[position_]; }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) ++position_;
  }

  Span emit(Kind kind, int column, Span span) {
    Expression::Node node;
    node.kind = kind;
    node.column = column;
    node.span_begin = span.begin;
    node.span_end = span.end;
    nodes_.push_back(std::move(node));
    return span;
  }

  Span binary(Span (Parser::*operand)(), const std::string& operators) {
    Span left = (this->*operand)();
    while (true) {
      skip_space();
      const char op = peek();
      if (op == '\0' || operators.find(op) == std::string::npos) return left;
      const int column = position_++;
      const Span right = (this->*operand)();
      const Kind kind = op == '+'   ? Kind::add
                        : op == '-' ? Kind::subtract
                        : op == '*' ? Kind::multiply
                        : op == '/' ? Kind::divide
                                    : Kind::modulo;
      left = emit(kind, column, {left.begin, right.end});
    }
  }

  Span expr() { return binary(&Parser::term, "+-"); }
  Span term() { return binary(&Parser::unary, "*/%"); }

  Span unary() {
    skip_space();
    // Parentheses and unary minus recurse: bound the depth so a hostile file cannot overflow
    // the stack.
    if (++depth_ > kMaxDepth)
      fail(where_, position_, "expression", "expression '" + text_ + "' is nested too deeply");
    Span span;
    if (peek() != '-') {
      span = primary();
    } else {
      const int column = position_++;
      const Span operand = unary();
      span = emit(Kind::negate, column, {column, operand.end});
    }
    --depth_;
    return span;
  }

  Span primary() {
    skip_space();
    const int begin = position_;
    const char c = peek();
    if (c == '(') {
      ++position_;
      expr();
      skip_space();
      if (peek() != ')')
        fail(where_, position_, "expression", "missing ')' in expression '" + text_ + "'");
      ++position_;
      // The parenthesised subexpression's last node now spans the parentheses too.
      nodes_.back().span_begin = begin;
      nodes_.back().span_end = position_;
      return {begin, position_};
    }
    if (is_digit(c)) return number(begin);
    if (is_identifier_start(c)) {
      while (is_identifier_char(peek())) ++position_;
      const int name_end = position_;
      skip_space();
      if (peek() == '(') return call(begin, text_.substr(begin, name_end - begin));
      position_ = name_end;
      Expression::Node node;
      node.kind = Kind::symbol;
      node.name = text_.substr(begin, position_ - begin);
      node.column = begin;
      node.span_begin = begin;
      node.span_end = position_;
      nodes_.push_back(std::move(node));
      return {begin, position_};
    }
    if (at_end())
      fail(where_, position_, "expression", "expression '" + text_ + "' ends too early");
    fail(where_, position_, "expression",
         "unexpected '" + std::string(1, c) + "' in expression '" + text_ + "'",
         "expressions use integers, symbol names, + - * / % and parentheses");
  }

  // name '(' expr ',' expr ')': the two arguments' programs, then the function's node.
  Span call(int begin, const std::string& name) {
    const Kind kind = name == "min"        ? Kind::min
                      : name == "max"      ? Kind::max
                      : name == "ceil_div" ? Kind::ceil_div
                                           : Kind::number;
    if (kind == Kind::number)
      fail(where_, begin, "expression",
           "unknown function '" + name + "' in expression '" + text_ + "'",
           "expressions may call min(a, b), max(a, b) and ceil_div(a, b)");
    if (++depth_ > kMaxDepth)
      fail(where_, position_, "expression", "expression '" + text_ + "' is nested too deeply");
    ++position_;  // '('
    expr();
    skip_space();
    if (peek() != ',')
      fail(where_, position_, "expression",
           name + " takes two arguments: expected ',' in expression '" + text_ + "'",
           "write " + name + "(a, b)");
    ++position_;
    expr();
    skip_space();
    if (peek() == ',')
      fail(where_, position_, "expression",
           name + " takes two arguments, not more, in expression '" + text_ + "'");
    if (peek() != ')')
      fail(where_, position_, "expression", "missing ')' in expression '" + text_ + "'");
    ++position_;
    --depth_;
    return emit(kind, begin, {begin, position_});
  }

  Span number(int begin) {
    std::int64_t value = 0;
    while (is_digit(peek())) {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, peek() - '0', &value)) {
        while (is_digit(peek())) ++position_;
        fail(where_, begin, "overflow",
             std::string("integer ").append(text_, begin, position_ - begin) +
                 " does not fit in 64 bits");
      }
      ++position_;
    }
    if (is_identifier_char(peek()) || peek() == '.') {
      while (is_identifier_char(peek()) || peek() == '.') ++position_;
      fail(where_, begin, "expression",
           std::string("'").append(text_, begin, position_ - begin) + "' is not a decimal integer",
           "expressions use decimal integers only");
    }
    Expression::Node node;
    node.kind = Kind::number;
    node.value = value;
    node.column = begin;
    node.span_begin = begin;
    node.span_end = position_;
    nodes_.push_back(std::move(node));
    return {begin, position_};
  }

  static constexpr int kMaxDepth = 256;
  const std::string& text_;
  const SourceLocation& where_;
  int position_ = 0;
  int depth_ = 0;
  std::vector<Expression::Node> nodes_;
};

std::string defined_list(const SymbolTable& symbols) {
  std::string list;
  for (const auto& [name, value] : symbols) list += (list.empty() ? "" : ", ") + name;
  return list.empty() ? "none" : list;
}

}  // namespace

Expression Expression::parse(const std::string& text, const SourceLocation& where) {
  Expression expression;
  expression.text_ = text;
  expression.where_ = where;
  expression.nodes_ = Parser(text, where).run();
  return expression;
}

Expression Expression::literal(std::int64_t value) {
  Expression expression;
  expression.text_ = std::to_string(value);
  Node node;
  node.kind = Node::Kind::number;
  node.value = value;
  node.span_end = static_cast<int>(expression.text_.size());
  expression.nodes_.push_back(node);
  return expression;
}

std::int64_t Expression::evaluate(const SymbolTable& symbols) const {
  std::vector<std::int64_t> stack;
  stack.reserve(nodes_.size());
  for (const Node& node : nodes_) {
    if (node.kind == Node::Kind::number) {
      stack.push_back(node.value);
      continue;
    }
    if (node.kind == Node::Kind::symbol) {
      const auto found = symbols.find(node.name);
      if (found == symbols.end()) {
        std::vector<std::string> names;
        for (const auto& entry : symbols) names.push_back(entry.first);
        const std::string guess = closest_name(node.name, names);
        fail(where_, node.column, "undefined-symbol",
             "undefined symbol '" + node.name + "' (defined: " + defined_list(symbols) + ")",
             guess.empty()
                 ? "define " + node.name + " under 'symbols:'"
                 : "did you mean '" + guess + "'? or define " + node.name + " under 'symbols:'");
      }
      stack.push_back(found->second);
      continue;
    }
    const std::string part = text_.substr(node.span_begin, node.span_end - node.span_begin);
    std::int64_t result = 0;
    if (node.kind == Node::Kind::negate) {
      if (__builtin_sub_overflow(std::int64_t{0}, stack.back(), &result))
        fail(where_, node.column, "overflow", "'" + part + "' overflows a 64-bit integer");
      stack.back() = result;
      continue;
    }
    const std::int64_t right = stack.back();
    stack.pop_back();
    const std::int64_t left = stack.back();
    const auto overflow = [&](const char* op) {
      fail(where_, node.column, "overflow",
           "'" + part + "' overflows a 64-bit integer (" + std::to_string(left) + " " + op + " " +
               std::to_string(right) + ")",
           "use smaller sizes or strides");
    };
    switch (node.kind) {
      case Node::Kind::add:
        if (__builtin_add_overflow(left, right, &result)) overflow("+");
        break;
      case Node::Kind::subtract:
        if (__builtin_sub_overflow(left, right, &result)) overflow("-");
        break;
      case Node::Kind::multiply:
        if (__builtin_mul_overflow(left, right, &result)) overflow("*");
        break;
      case Node::Kind::divide:
      case Node::Kind::modulo:
        if (right == 0)
          fail(where_, node.column, "divisibility", "'" + part + "' divides by zero",
               "check the symbol values");
        if (left == std::numeric_limits<std::int64_t>::min() && right == -1) overflow("/");
        if (node.kind == Node::Kind::modulo) {
          result = left % right;
        } else if (left % right != 0) {
          fail(where_, node.column, "divisibility",
               part + ": " + std::to_string(left) + " is not divisible by " + std::to_string(right),
               "choose symbol values for which the division is exact");
        } else {
          result = left / right;
        }
        break;
      case Node::Kind::min:
        result = std::min(left, right);
        break;
      case Node::Kind::max:
        result = std::max(left, right);
        break;
      case Node::Kind::ceil_div:
        if (right <= 0)
          fail(where_, node.column, "divisibility",
               "'" + part + "' divides by " +
                   (right == 0 ? std::string("zero") : std::to_string(right)),
               "ceil_div(a, b) needs b > 0; check the symbol values");
        // Truncation rounds towards zero: up already for a negative a, one short for a positive
        // a with a remainder. No intermediate can overflow.
        result = left / right + (left > 0 && left % right != 0 ? 1 : 0);
        break;
      default:
        break;
    }
    stack.back() = result;
  }
  return stack.back();
}

std::vector<std::string> Expression::symbols() const {
  std::vector<std::string> names;
  for (const Node& node : nodes_)
    if (node.kind == Node::Kind::symbol &&
        std::find(names.begin(), names.end(), node.name) == names.end())
      names.push_back(node.name);
  return names;
}

std::pair<std::string, std::int64_t> parse_symbol_assignment(const std::string& text) {
  const auto usage = [&](const std::string& why) -> std::pair<std::string, std::int64_t> {
    throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                "--set " + text + ": " + why,
                                "write --set NAME=VALUE with an integer VALUE, e.g. --set HV=32"});
  };
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos) return usage("expected NAME=VALUE");
  const std::string name = text.substr(0, equals);
  const std::string value = text.substr(equals + 1);
  if (name.empty() || !is_identifier_start(name[0]) ||
      !std::all_of(name.begin(), name.end(), is_identifier_char))
    return usage("'" + name + "' is not a symbol name");
  // Decimal digits with an optional '-': no '+', spaces or "0x".
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error == std::errc::result_out_of_range)
    return usage("'" + value + "' does not fit in 64 bits");
  if (error != std::errc() || end != value.data() + value.size())
    return usage("'" + value + "' is not an integer");
  return {name, number};
}

}  // namespace layoutcheck
