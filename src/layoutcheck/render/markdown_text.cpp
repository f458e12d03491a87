#include "layoutcheck/render/markdown_text.h"

#include <algorithm>

#include "layoutcheck/render/svg_canvas.h"

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
    if (std::string_view("\\`*_[]#|").find(c) != std::string_view::npos)
      out.append(1, '\\').append(1, c);
    else  // HTML's own: < > & as entities, the rest as is
      out += xml_escape(text.substr(i, 1));
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
