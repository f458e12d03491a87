#include "layoutcheck/contract/read_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace layoutcheck {

std::optional<std::string> read_text_file(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) return std::nullopt;  // opens, reads nothing
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace layoutcheck
