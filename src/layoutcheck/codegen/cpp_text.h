// Contract text made safe to paste into generated C++: a contract's names, descriptions and paths
// are free text (quotes, backslashes, newlines, "*/"), and a generated file must still compile
// and mean what the generator wrote, whatever they hold.
//   cpp_string_literal("a\"b")         -> "\"a\\\"b\""     (quotes included)
//   cpp_comment_text("x\n#define y 1") -> "x #define y 1" (stays on the comment's line)
#pragma once

#include <string>
#include <string_view>

namespace layoutcheck::codegen {

// Every C++20 keyword and alternative token ("int", "class", "new", "and", "co_await", ...).
bool is_cpp_keyword(std::string_view name);
// A macro or function-like name the C and C++ standard headers (and so hipRTC/NVRTC's) may define:
// NULL, EOF, assert, errno, INT_MAX, ... An identifier spelled so would be replaced by the
// preprocessor before the compiler sees it.
bool is_standard_macro(std::string_view name);

// A double-quoted C++ string literal of `text`, byte for byte: quotes, backslashes, control
// characters and '?' (trigraphs) escaped; other bytes, UTF-8 included, kept.
std::string cpp_string_literal(std::string_view text);

// `text` for one `//` comment line: control characters (newlines) become spaces, "*/" and "??"
// are broken with a space, and a trailing backslash (which would splice the next line into the
// comment) is followed by a '.'.
std::string cpp_comment_text(std::string_view text);

}  // namespace layoutcheck::codegen
