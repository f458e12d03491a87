// A YAML document as a plain tree: everything the contract reader needs from yaml-cpp, with
// nothing of yaml-cpp in the interface. yaml-cpp's quirks (0.7 vs 0.8, LoadAll never returning on
// a stray ',', aliases that expand exponentially or refer to themselves) are handled once, in
// yaml_tree.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {

struct YamlEntry;

struct YamlNode {
  enum class Kind { null, scalar, sequence, map };
  Kind kind = Kind::null;
  std::string scalar;   // the text of a scalar
  bool quoted = false;  // "..." or '...': line and column are those of the opening quote
  int line = 0;         // 1-based; 0 when unknown
  int column = 0;
  std::vector<YamlNode> items;     // a sequence's items
  std::vector<YamlEntry> entries;  // a map's entries in file order, duplicate keys kept
};

struct YamlEntry {
  YamlNode key;
  YamlNode value;
};

// Caps on one document once aliases are expanded: contracts are a few levels deep and small.
inline constexpr int kMaxYamlDepth = 64;
inline constexpr int kMaxYamlNodes = 1 << 20;
// The text of every scalar, an alias's as often as it is used: one anchor of a few MiB named by
// a thousand aliases would otherwise be copied into gigabytes.
inline constexpr std::size_t kMaxYamlScalarBytes = 16 << 20;

// @post the single document of text as a tree; or nullopt, with diagnostics (rule "yaml", naming
//       line and column) for malformed YAML, more than one document, or a document past the caps.
std::optional<YamlNode> parse_yaml(std::string_view text, const std::string& file,
                                   std::vector<Diagnostic>& diagnostics);

}  // namespace layoutcheck
