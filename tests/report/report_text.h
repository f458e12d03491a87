// Helpers for asserting on rendered report text line by line.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace layoutcheck::testing {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline std::vector<std::string> lines_containing(const std::string& text, const std::string& part) {
  std::vector<std::string> found;
  for (const std::string& line : lines_of(text))
    if (line.find(part) != std::string::npos) found.push_back(line);
  return found;
}

// The text from the line starting with `heading` up to the next line starting with "## ".
inline std::string section_of(const std::string& text, const std::string& heading) {
  const std::size_t begin = text.find("\n" + heading);
  if (begin == std::string::npos) return "";
  const std::size_t end = text.find("\n## ", begin + 1);
  return text.substr(begin + 1, end == std::string::npos ? std::string::npos : end - begin);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

}  // namespace layoutcheck::testing
