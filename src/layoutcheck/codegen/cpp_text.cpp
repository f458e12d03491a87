#include "layoutcheck/codegen/cpp_text.h"

#include <array>
#include <functional>
#include <set>

namespace layoutcheck::codegen {

bool is_cpp_keyword(std::string_view name) {
  static const std::set<std::string_view, std::less<>> keywords = {
      "alignas",       "alignof",     "and",
      "and_eq",        "asm",         "auto",
      "bitand",        "bitor",       "bool",
      "break",         "case",        "catch",
      "char",          "char8_t",     "char16_t",
      "char32_t",      "class",       "compl",
      "concept",       "const",       "consteval",
      "constexpr",     "constinit",   "const_cast",
      "continue",      "co_await",    "co_return",
      "co_yield",      "decltype",    "default",
      "delete",        "do",          "double",
      "dynamic_cast",  "else",        "enum",
      "explicit",      "export",      "extern",
      "false",         "float",       "for",
      "friend",        "goto",        "if",
      "inline",        "int",         "long",
      "mutable",       "namespace",   "new",
      "noexcept",      "not",         "not_eq",
      "nullptr",       "operator",    "or",
      "or_eq",         "private",     "protected",
      "public",        "register",    "reinterpret_cast",
      "requires",      "return",      "short",
      "signed",        "sizeof",      "static",
      "static_assert", "static_cast", "struct",
      "switch",        "template",    "this",
      "thread_local",  "throw",       "true",
      "try",           "typedef",     "typeid",
      "typename",      "union",       "unsigned",
      "using",         "virtual",     "void",
      "volatile",      "wchar_t",     "while",
      "xor",           "xor_eq"};
  return keywords.count(name) > 0;
}

bool is_standard_macro(std::string_view name) {
  static const std::set<std::string_view, std::less<>> macros = {
      "NULL",       "EOF",          "assert",       "errno",      "offsetof",   "stdin",
      "stdout",     "stderr",       "setjmp",       "va_arg",     "va_copy",    "va_end",
      "va_start",   "INFINITY",     "NAN",          "HUGE_VAL",   "HUGE_VALF",  "FP_NAN",
      "EXIT_FAILURE", "EXIT_SUCCESS", "RAND_MAX",   "CHAR_BIT",   "CHAR_MAX",   "CHAR_MIN",
      "INT_MAX",    "INT_MIN",      "UINT_MAX",     "LONG_MAX",   "LONG_MIN",   "ULONG_MAX",
      "LLONG_MAX",  "LLONG_MIN",    "ULLONG_MAX",   "SHRT_MAX",   "SHRT_MIN",   "USHRT_MAX",
      "SIZE_MAX",   "PTRDIFF_MAX",  "PTRDIFF_MIN",  "INT8_MAX",   "INT16_MAX",  "INT32_MAX",
      "INT64_MAX",  "UINT8_MAX",    "UINT16_MAX",   "UINT32_MAX", "UINT64_MAX", "FLT_MAX",
      "DBL_MAX",    "FLT_EPSILON",  "DBL_EPSILON",  "BUFSIZ",     "FILENAME_MAX", "SEEK_SET",
      "SEEK_CUR",   "SEEK_END",     "CLOCKS_PER_SEC", "MB_CUR_MAX", "signbit",  "isnan",
      "isinf",      "isfinite",     "fpclassify",   "isnormal",   "unix",       "linux"};
  return macros.count(name) > 0;
}

std::string cpp_string_literal(std::string_view text) {
  std::string literal = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        literal += "\\\"";
        break;
      case '\\':
        literal += "\\\\";
        break;
      case '?':  // "??/" is a backslash where trigraphs still apply (C++14 and older)
        literal += "\\?";
        break;
      case '\n':
        literal += "\\n";
        break;
      case '\t':
        literal += "\\t";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          // Three octal digits always end the escape, unlike \x, which swallows hex digits after.
          const std::array<char, 5> octal = {'\\', static_cast<char>('0' + (byte >> 6)),
                                             static_cast<char>('0' + ((byte >> 3) & 7)),
                                             static_cast<char>('0' + (byte & 7)), '\0'};
          literal += octal.data();
        } else {
          literal += c;
        }
    }
  }
  return literal + "\"";
}

std::string cpp_comment_text(std::string_view text) {
  std::string comment;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool control = byte < 0x20 || byte == 0x7f;
    // "*/" would end an enclosing block comment; "??" may start a trigraph such as "??/".
    if (!comment.empty() &&
        ((comment.back() == '*' && c == '/') || (comment.back() == '?' && c == '?')))
      comment += ' ';
    comment += control ? ' ' : c;
  }
  while (!comment.empty() && comment.back() == ' ') comment.pop_back();
  // A backslash at the end of a line splices the next line into the comment.
  if (!comment.empty() && comment.back() == '\\') comment += '.';
  return comment;
}

}  // namespace layoutcheck::codegen
