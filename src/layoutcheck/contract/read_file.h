// The whole of a file as text: manifests, kernel sources, recorded reports and test data.
// Contracts have their own reader with a size cap (load.cpp).
#pragma once

#include <optional>
#include <string>

namespace layoutcheck {

// @post nullopt when the file cannot be opened or is a directory, so that each caller says what it
//       was reading.
std::optional<std::string> read_text_file(const std::string& path);

}  // namespace layoutcheck
