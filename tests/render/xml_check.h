// Enough of an XML check for the SVG the renderers write, shared by the render tests.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace layoutcheck::testing {

// Enough of XML for what we write: balanced tags, quoted attributes, no attribute twice in one
// tag, '&' only in entities, '<' only as markup. Returns "" or the first problem.
inline std::string xml_problem(const std::string& svg) {
  std::vector<std::string> open;
  std::size_t at = 0;
  while (at < svg.size()) {
    if (svg[at] == '&') {
      const std::size_t end = svg.find(';', at);
      const std::string entity = svg.substr(at, end == std::string::npos ? 8 : end - at + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;")
        return "bad entity at " + std::to_string(at);
    }
    if (svg[at] != '<') {
      ++at;
      continue;
    }
    const std::size_t end = svg.find('>', at);
    if (end == std::string::npos) return "unterminated tag";
    std::string tag = svg.substr(at + 1, end - at - 1);
    at = end + 1;
    if (tag.starts_with("/")) {
      if (open.empty() || open.back() != tag.substr(1))
        return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.ends_with("/");
    if (self_closing) tag.pop_back();
    const std::string name = tag.substr(0, tag.find(' '));
    std::set<std::string> attributes;
    std::size_t pos = name.size();
    while (pos < tag.size()) {
      while (pos < tag.size() && tag[pos] == ' ') ++pos;
      if (pos >= tag.size()) break;
      const std::size_t equals = tag.find('=', pos);
      if (equals == std::string::npos || equals + 1 >= tag.size() || tag[equals + 1] != '"')
        return "unquoted attribute in <" + name + ">";
      const std::string attribute = tag.substr(pos, equals - pos);
      if (!attributes.insert(attribute).second)
        return "attribute " + attribute + " twice in <" + name + ">";
      const std::size_t close = tag.find('"', equals + 2);
      if (close == std::string::npos) return "unterminated attribute in <" + name + ">";
      if (tag.substr(equals + 2, close - equals - 2).find('<') != std::string::npos)
        return "< in attribute";
      pos = close + 1;
    }
    if (!self_closing) open.push_back(name);
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

}  // namespace layoutcheck::testing
