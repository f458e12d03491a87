// Hand edits of a report's JSON for the tests that feed the reader broken or doctored files, and
// the reader's verdict on them:
// replaced(document, {"paths", 3, "validity", "valid"}, true).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "layoutcheck/json/json.h"
#include "layoutcheck/report/json_report.h"

namespace layoutcheck::testing {

// A member name or an array index: {"paths", 3, "validity"}.
struct JsonKey {
  JsonKey(const char* member) : name(member) {}
  JsonKey(int array_index) : index(static_cast<std::size_t>(array_index)) {}
  std::string name;  // empty for an index
  std::size_t index = 0;
};

namespace detail {

inline Json replaced_at(const Json& value, const std::vector<JsonKey>& path, std::size_t depth,
                        const Json& replacement) {
  if (depth == path.size()) return replacement;
  const JsonKey& key = path[depth];
  if (!key.name.empty()) {
    if (value.find(key.name) == nullptr) throw std::logic_error("json_edit: no " + key.name);
    Json object = Json::object();
    for (const auto& [member, child] : value.members())
      object.set(member,
                 member == key.name ? replaced_at(child, path, depth + 1, replacement) : child);
    return object;
  }
  const std::size_t index = key.index;
  if (index >= value.items().size()) throw std::logic_error("json_edit: index out of range");
  Json array = Json::array();
  for (std::size_t i = 0; i < value.items().size(); ++i)
    array.push(i == index ? replaced_at(value[i], path, depth + 1, replacement) : value[i]);
  return array;
}

}  // namespace detail

// `document` with the member at `path` replaced by `replacement` (which must exist).
inline Json replaced(const Json& document, const std::vector<JsonKey>& path,
                     const Json& replacement) {
  return detail::replaced_at(document, path, 0, replacement);
}

// The member at `path`.
inline const Json& at(const Json& document, const std::vector<JsonKey>& path) {
  const Json* value = &document;
  for (const JsonKey& key : path)
    value = key.name.empty() ? &(*value)[key.index] : &(*value)[key.name];
  return *value;
}

// The reader's error for `document`, or "" when it loads.
inline std::string load_error(const Json& document) {
  try {
    bench_report_from_json(document);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace layoutcheck::testing
