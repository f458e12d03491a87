#include "layoutcheck/json/json.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "layoutcheck/contract/utf8.h"

namespace layoutcheck {
namespace {

constexpr std::size_t kOneLineArrayWidth = 80;
constexpr int kMaxParseDepth = 256;  // hostile input must not overflow the stack
// Values held at once: about 80 bytes each with their place in an array or object, so a document
// of 11 million tiny values (64 MiB of "a":0,) is refused at about 200 MB, not kept at a GB.
// A streamed array's items count only while each is read, each at most kMaxStreamedItemValues:
// an item is one trace event (tens of values), and 17 items of 2 million values each took 10 s.
constexpr std::size_t kMaxHeldValues = std::size_t{1} << 21;
constexpr std::size_t kMaxStreamedItemValues = std::size_t{1} << 16;

const char* kind_name(Json::Kind kind) {
  static const char* const names[] = {"null",   "boolean", "integer", "number",
                                      "string", "array",   "object"};
  return names[static_cast<int>(kind)];
}

[[noreturn]] void wrong_kind(Json::Kind actual, const char* wanted) {
  throw std::logic_error(std::string("JSON value is ") + kind_name(actual) + ", not " + wanted);
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Keys of one object by their index into its members, so that a key is found in constant time
// (pairs would take hours in a hostile object of a million keys) and a member's key is never
// copied; members may move as the vector grows, indices stay.
class KeyIndex {
 public:
  explicit KeyIndex(const Json::Object& members)
      : keys_(0, Hash{&members}, Equal{&members}) {}
  // False when the key of members[index] is already there.
  bool insert(std::size_t index) { return keys_.insert(index).second; }

 private:
  struct Hash {
    const Json::Object* members;
    std::size_t operator()(std::size_t i) const {
      return std::hash<std::string>{}((*members)[i].first);
    }
  };
  struct Equal {
    const Json::Object* members;
    bool operator()(std::size_t a, std::size_t b) const {
      return (*members)[a].first == (*members)[b].first;
    }
  };
  std::unordered_set<std::size_t, Hash, Equal> keys_;
};

}  // namespace

class JsonParser {
 public:
  using ItemHandler = std::function<void(Json, Json::ItemPlace)>;

  explicit JsonParser(std::string_view text, std::string_view streamed = {},
                      const ItemHandler* on_item = nullptr)
      : text_(text), streamed_(streamed), on_item_(on_item) {}

  Json document() {
    Json value = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i, ++column)
      if (text_[i] == '\n') line += 1, column = 0;
    throw JsonSyntaxError(line, column, what);
  }
  // The line of pos_, counted on from the last call: the items of a streamed array are met in
  // order, so the whole count is one pass over the text.
  int line_at_position() {
    for (; counted_ < pos_ && counted_ < text_.size(); ++counted_)
      if (text_[counted_] == '\n') ++line_;
    return line_;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  void literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail("invalid literal");
    pos_ += word.size();
  }

  Json parse_value(int depth) {
    if (depth > kMaxParseDepth) fail("nested too deeply");
    if (++held_ > item_cap_)
      fail(item_cap_ == kMaxHeldValues
               ? "more than " + std::to_string(kMaxHeldValues) + " values: too large a document"
               : "an item of '" + std::string(streamed_) + "' with more than " +
                     std::to_string(kMaxStreamedItemValues) + " values: too large an item");
    skip_space();
    switch (peek()) {
      case '{':
        return parse_object(depth);
      case '[':
        return parse_array(depth);
      case '"':
        return Json(parse_string());
      case 't':
        literal("true");
        return Json(true);
      case 'f':
        literal("false");
        return Json(false);
      case 'n':
        literal("null");
        return Json();
      default:
        return parse_number();
    }
  }

  Json parse_object(int depth) {
    expect('{');
    Json::Object members;
    std::optional<KeyIndex> index;  // from the 17th key; pairwise comparison before is cheaper
    skip_space();
    if (peek() == '}') return ++pos_, Json(std::move(members));
    while (true) {
      skip_space();
      if (peek() != '"') fail("expected a string key");
      const std::size_t key_at = pos_;
      members.emplace_back(parse_string(), Json());
      // RFC 8259 leaves repeated names to the reader; a second value silently winning would let
      // a hand edit slip past review, so it is an error, at the repeated key.
      if (repeats_a_key(members, index)) {
        pos_ = key_at;
        fail("duplicate key '" + members.back().first + "'");
      }
      skip_space();
      expect(':');
      skip_space();
      const std::string& key = members.back().first;
      const bool streamed = depth == 0 && on_item_ != nullptr && key == streamed_ && peek() == '[';
      Json value = streamed ? stream_array(depth + 1) : parse_value(depth + 1);
      members.back().second = std::move(value);
      skip_space();
      if (peek() == '}') return ++pos_, Json(std::move(members));
      expect(',');
    }
  }

  // Whether the last member's key is an earlier member's.
  static bool repeats_a_key(const Json::Object& members, std::optional<KeyIndex>& index) {
    constexpr std::size_t kPairwise = 16;
    const std::size_t last = members.size() - 1;
    if (last < kPairwise) {
      for (std::size_t i = 0; i < last; ++i)
        if (members[i].first == members[last].first) return true;
      return false;
    }
    if (!index) {
      index.emplace(members);
      for (std::size_t i = 0; i < last; ++i) index->insert(i);
    }
    return !index->insert(last);
  }

  Json parse_array(int depth) {
    expect('[');
    Json::Array items;
    skip_space();
    if (peek() == ']') return ++pos_, Json(std::move(items));
    while (true) {
      items.push_back(parse_value(depth + 1));
      skip_space();
      if (peek() == ']') return ++pos_, Json(std::move(items));
      expect(',');
    }
  }

  // An array whose items go to on_item_ one by one; an empty array stands in its place.
  Json stream_array(int depth) {
    expect('[');
    skip_space();
    if (peek() == ']') return ++pos_, Json::array();
    for (std::size_t index = 0;; ++index) {
      const std::size_t held = held_;
      item_cap_ = held + kMaxStreamedItemValues;
      skip_space();
      const int line = line_at_position();
      Json item = parse_value(depth + 1);
      item_cap_ = kMaxHeldValues;
      held_ = held;
      (*on_item_)(std::move(item), Json::ItemPlace{index, line});
      skip_space();
      if (peek() == ']') return ++pos_, Json::array();
      expect(',');
    }
  }

  std::uint32_t hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    std::uint32_t code = 0;
    const auto [end, error] =
        std::from_chars(text_.data() + pos_, text_.data() + pos_ + 4, code, 16);
    if (error != std::errc() || end != text_.data() + pos_ + 4) fail("invalid \\u escape");
    pos_ += 4;
    return code;
  }

  std::string parse_string() {
    expect('"');
    std::string out;
    while (true) {
      if (at_end()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_end()) fail("unterminated escape");
      switch (const char e = text_[pos_++]) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t code = hex4();
          if (code >= 0xD800 && code < 0xDC00) {  // surrogate pair
            if (text_.substr(pos_, 2) != "\\u") fail("unpaired surrogate");
            pos_ += 2;
            const std::uint32_t low = hex4();
            if (low < 0xDC00 || low >= 0xE000) fail("unpaired surrogate");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          } else if (code >= 0xDC00 && code < 0xE000) {
            fail("unpaired surrogate");
          }
          append_utf8(out, code);
          break;
        }
        default:
          fail("invalid escape");
      }
    }
  }

  Json parse_number() {
    const std::size_t begin = pos_;
    auto digits = [&] {
      const std::size_t from = pos_;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
      return pos_ - from;
    };
    if (peek() == '-') ++pos_;
    const std::size_t int_begin = pos_;
    if (digits() == 0) fail("expected a value");
    if (text_[int_begin] == '0' && pos_ - int_begin > 1) fail("leading zero in number");
    bool integral = true;
    if (peek() == '.') {
      ++pos_, integral = false;
      if (digits() == 0) fail("expected digits after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_, integral = false;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (digits() == 0) fail("expected digits in exponent");
    }
    const char* first = text_.data() + begin;
    const char* last = text_.data() + pos_;
    if (integral) {
      std::int64_t value = 0;
      if (std::from_chars(first, last, value).ec == std::errc()) return Json(value);
    }
    double value = 0;  // also integers past int64
    if (std::from_chars(first, last, value).ec != std::errc()) fail("number out of range");
    return Json(value);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t counted_ = 0;  // line_ is the line of this position
  int line_ = 1;
  std::size_t held_ = 0;
  std::size_t item_cap_ = kMaxHeldValues;  // lower while a streamed item is read
  std::string_view streamed_;
  const ItemHandler* on_item_;
};

std::string json_quote(std::string_view raw) {
  // JSON is UTF-8: bytes that are not (a file name may hold any) become U+FFFD.
  const std::string text = with_invalid_utf8_replaced(raw);
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xF];
          out += hex[c & 0xF];
        } else {
          out += c;  // UTF-8 passes through
        }
    }
  }
  return out + "\"";
}

Json& Json::push(Json value) {
  if (kind() != Kind::array) wrong_kind(kind(), "an array");
  std::get<Array>(value_).push_back(std::move(value));
  return *this;
}

Json& Json::set(std::string_view key, Json value) {
  if (kind() != Kind::object) wrong_kind(kind(), "an object");
  Object& members = std::get<Object>(value_);
  for (auto& [name, existing] : members)
    if (name == key) return existing = std::move(value), *this;
  members.emplace_back(std::string(key), std::move(value));
  return *this;
}

bool Json::as_bool() const {
  if (kind() != Kind::boolean) wrong_kind(kind(), "a boolean");
  return std::get<bool>(value_);
}
std::int64_t Json::as_int() const {
  if (kind() != Kind::integer) wrong_kind(kind(), "an integer");
  return std::get<std::int64_t>(value_);
}
double Json::as_double() const {
  if (kind() == Kind::integer) return static_cast<double>(std::get<std::int64_t>(value_));
  if (kind() != Kind::number) wrong_kind(kind(), "a number");
  return std::get<double>(value_);
}
const std::string& Json::as_string() const {
  if (kind() != Kind::string) wrong_kind(kind(), "a string");
  return std::get<std::string>(value_);
}
const Json::Array& Json::items() const {
  if (kind() != Kind::array) wrong_kind(kind(), "an array");
  return std::get<Array>(value_);
}
const Json::Object& Json::members() const {
  if (kind() != Kind::object) wrong_kind(kind(), "an object");
  return std::get<Object>(value_);
}
const Json* Json::find(std::string_view key) const {
  if (kind() != Kind::object) return nullptr;
  for (const auto& [name, value] : std::get<Object>(value_))
    if (name == key) return &value;
  return nullptr;
}
const Json& Json::operator[](std::string_view key) const {
  if (const Json* value = find(key)) return *value;
  throw std::logic_error("JSON object has no key \"" + std::string(key) + "\"");
}
const Json& Json::operator[](std::size_t index) const {
  const Array& array = items();
  if (index >= array.size()) throw std::logic_error("JSON array index out of range");
  return array[index];
}
std::size_t Json::size() const {
  if (kind() == Kind::array) return std::get<Array>(value_).size();
  if (kind() == Kind::object) return std::get<Object>(value_).size();
  return 0;
}

std::string Json::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  return out;
}

Json Json::parse(std::string_view text) {
  return JsonParser(text).document();
}

Json Json::parse(std::string_view text, std::string_view streamed,
                 const std::function<void(Json item, ItemPlace place)>& on_item) {
  return JsonParser(text, streamed, &on_item).document();
}

void Json::write(std::string& out, int indent, int depth) const {
  auto newline = [&](int level) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
  };
  switch (kind()) {
    case Kind::null:
      out += "null";
      break;
    case Kind::boolean:
      out += std::get<bool>(value_) ? "true" : "false";
      break;
    case Kind::integer:
      out += std::to_string(std::get<std::int64_t>(value_));
      break;
    case Kind::number: {
      const double value = std::get<double>(value_);
      if (!std::isfinite(value)) {
        out += "null";  // JSON has no NaN or infinity
        break;
      }
      char buffer[32];
      const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;  // shortest
      std::string text(buffer, end);
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // stays a number
      out += text;
      break;
    }
    case Kind::string:
      out += json_quote(std::get<std::string>(value_));
      break;
    case Kind::array: {
      const Array& array = std::get<Array>(value_);
      if (array.empty()) {
        out += "[]";
        break;
      }
      bool scalars = true;
      for (const Json& item : array) scalars = scalars && item.size() == 0;
      if (indent > 0 && scalars) {  // short lists of numbers read best on one line
        std::string line = "[";
        for (std::size_t i = 0; i < array.size(); ++i) {
          if (i) line += ", ";
          array[i].write(line, 0, 0);
        }
        line += "]";
        if (line.size() <= kOneLineArrayWidth) {
          out += line;
          break;
        }
      }
      out += '[';
      for (std::size_t i = 0; i < array.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        array[i].write(out, indent, depth + 1);
      }
      newline(depth);
      out += ']';
      break;
    }
    case Kind::object: {
      const Object& object = std::get<Object>(value_);
      if (object.empty()) {
        out += "{}";
        break;
      }
      out += '{';
      for (std::size_t i = 0; i < object.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        out += json_quote(object[i].first);
        out += indent > 0 ? ": " : ":";
        object[i].second.write(out, indent, depth + 1);
      }
      newline(depth);
      out += '}';
      break;
    }
  }
}

}  // namespace layoutcheck
