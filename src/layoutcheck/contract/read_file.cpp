#include "layoutcheck/contract/read_file.h"

#include <fstream>
#include <sstream>

namespace layoutcheck {

std::optional<std::string> read_text_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace layoutcheck
