// UTF-8 well-formedness: contracts' strings must be text, and every report (JSON, SVG) must stay
// valid whatever bytes reach it (a file name is any bytes).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace layoutcheck {

// Where the first byte that does not begin a well-formed UTF-8 character is (overlong forms,
// surrogates and code points past U+10FFFF are not well formed); nullopt if there is none.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// The text with every byte that does not begin a well-formed character replaced by U+FFFD.
std::string with_invalid_utf8_replaced(std::string_view text);

}  // namespace layoutcheck
