// Text from contracts (names, messages, element names) made safe for GitHub-flavoured Markdown,
// for the reports meant as pull-request comments: a name is shown as written, never as markup.
#pragma once

#include <string>
#include <string_view>

namespace layoutcheck {

// Plain text with Markdown and HTML punctuation escaped (\ ` * _ [ ] # | and < > & as entities),
// and " -> " written as an arrow: "group-major → interleaved".
std::string markdown_text(std::string_view text);

// A code span, `V[0:3,0:128]`; a text holding backticks gets a longer fence (`` a`b ``), and
// '|' is escaped so the span may sit in a table cell.
std::string markdown_code(std::string_view text);

}  // namespace layoutcheck
