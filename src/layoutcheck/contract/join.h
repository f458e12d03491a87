#pragma once
// Names joined for a message: "a, b, c".

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

}  // namespace layoutcheck
