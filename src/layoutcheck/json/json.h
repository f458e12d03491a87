// The project's one JSON model: build a value, print it (pretty, keys in insertion order so output
// is stable and diffable), or read one back (tests, tools that consume our own reports).
//
//   Json report = Json::object();
//   report.set("misread", 60).set("fields", Json::array().push("B"));
//   report.dump()   ->  {
//                         "misread": 60,
//                         "fields": ["B"]
//                       }
//   report.dump(0)  ->  {"misread":60,"fields":["B"]}
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace layoutcheck {

// Malformed JSON: what() is "JSON LINE:COLUMN: what", and the place is kept for a diagnostic's
// location.
class JsonSyntaxError : public std::runtime_error {
 public:
  JsonSyntaxError(int line, int column, const std::string& what)
      : std::runtime_error("JSON " + std::to_string(line) + ":" + std::to_string(column) + ": " +
                           what),
        line(line), column(column), what_alone(what) {}
  int line, column;
  std::string what_alone;  // "unterminated string"
};

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;  // insertion order is output order
  enum class Kind { null, boolean, integer, number, string, array, object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool value) : value_(value) {}
  template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) Json(T value)
      : value_(static_cast<std::int64_t>(value)) {}
  Json(double value) : value_(value) {}
  Json(const char* value) : value_(std::string(value)) {}
  Json(std::string value) : value_(std::move(value)) {}
  Json(std::string_view value) : value_(std::string(value)) {}

  static Json array() { return Json(Array{}); }
  // An array of the strings, in order.
  static Json strings(const std::vector<std::string>& items) {
    Json list = array();
    for (const std::string& item : items) list.push(item);
    return list;
  }
  static Json object() { return Json(Object{}); }

  Kind kind() const { return static_cast<Kind>(value_.index()); }
  bool is_null() const { return kind() == Kind::null; }

  // Builders; both return *this so calls chain. set() replaces an existing key in place.
  Json& push(Json value);
  Json& set(std::string_view key, Json value);

  // Readers; they throw std::logic_error on the wrong kind or a missing key.
  bool as_bool() const;
  std::int64_t as_int() const;
  double as_double() const;  // integers too
  const std::string& as_string() const;
  const Array& items() const;
  const Object& members() const;
  const Json* find(std::string_view key) const;  // nullptr when absent or not an object
  const Json& operator[](std::string_view key) const;
  const Json& operator[](std::size_t index) const;
  std::size_t size() const;  // items of an array, members of an object, else 0

  // indent > 0: pretty, one member per line, short arrays of scalars on one line; 0: compact.
  // No trailing newline.
  std::string dump(int indent = 2) const;

  // Strict JSON (RFC 8259), and no object repeats a key. Throws std::runtime_error naming line
  // and column: "JSON 3:3: duplicate key 'layers'".
  static Json parse(std::string_view text);

  // Where a streamed item is: its index in the array and the line (from 1) it begins on.
  struct ItemPlace {
    std::size_t index = 0;
    int line = 0;
  };

  // The same, but the items of the top-level object's array member `streamed` are handed to
  // `on_item` (with their place) as they are read, and not kept: a trace of millions of events
  // holds one at a time. The document comes back with that member an empty array. Whatever
  // on_item throws ends the parse.
  static Json parse(std::string_view text, std::string_view streamed,
                    const std::function<void(Json item, ItemPlace place)>& on_item);

 private:
  friend class JsonParser;
  explicit Json(Array value) : value_(std::move(value)) {}
  explicit Json(Object value) : value_(std::move(value)) {}
  void write(std::string& out, int indent, int depth) const;

  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> value_;
};

// "a\"b" with JSON escapes, quotes included.
std::string json_quote(std::string_view text);

}  // namespace layoutcheck
