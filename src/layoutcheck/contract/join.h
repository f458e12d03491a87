#pragma once
// Names and numbers joined for a message: "a, b, c", "[3,4,5]".

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutcheck {

inline std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ") {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

inline std::string join_numbers(const std::vector<std::int64_t>& values,
                                std::string_view separator = ", ") {
  std::string text;
  for (const std::int64_t value : values) {
    if (!text.empty()) text += separator;
    text += std::to_string(value);
  }
  return text;
}

// A shape as a message writes it: "[3,4,5]".
inline std::string shape_text(const std::vector<std::int64_t>& shape) {
  return "[" + join_numbers(shape, ",") + "]";
}

}  // namespace layoutcheck
