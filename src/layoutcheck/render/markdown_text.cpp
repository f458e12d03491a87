#include "layoutcheck/render/markdown_text.h"

#include <algorithm>

namespace layoutcheck {

std::string markdown_text(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 4) == " -> ") {
      out += " → ";
      i += 3;
      continue;
    }
    const char c = text[i];
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '#':
      case '|':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  // The fence is one backtick longer than the longest run of them inside.
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string body;
  for (const char c : text) body += c == '|' ? std::string("\\|") : std::string(1, c);
  const std::string fence(longest + 1, '`');
  const bool pad = longest > 0;  // a span may not start or end with its own fence character
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace layoutcheck
