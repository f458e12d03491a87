// The project's JSON model: printing (escapes, numbers, stable layout) and reading back.
#include "layoutcheck/json/json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace layoutcheck {
namespace {

TEST(Json, PrettyPrintKeepsInsertionOrder) {
  Json doc = Json::object();
  doc.set("zeta", 1).set("alpha", Json::array().push(1).push(2)).set("empty", Json::object());
  doc.set("list", Json::array().push(Json::object().set("name", "Q").set("ok", true)));
  doc.set("zeta", "replaced in place");
  EXPECT_EQ(doc.dump(),
            "{\n"
            "  \"zeta\": \"replaced in place\",\n"
            "  \"alpha\": [1, 2],\n"
            "  \"empty\": {},\n"
            "  \"list\": [\n"
            "    {\n"
            "      \"name\": \"Q\",\n"
            "      \"ok\": true\n"
            "    }\n"
            "  ]\n"
            "}");
  EXPECT_EQ(doc.dump(0),
            "{\"zeta\":\"replaced in place\",\"alpha\":[1,2],\"empty\":{},\"list\":[{\"name\":"
            "\"Q\",\"ok\":true}]}");
}

TEST(Json, LongScalarArraysBreakOverLines) {
  Json numbers = Json::array();
  for (int i = 0; i < 40; ++i) numbers.push(1000 + i);
  const std::string text = numbers.dump();
  EXPECT_EQ(text.substr(0, 10), "[\n  1000,\n");
  EXPECT_EQ(Json::parse(text).size(), 40u);
}

TEST(Json, EscapesStrings) {
  EXPECT_EQ(json_quote("plain"), "\"plain\"");
  EXPECT_EQ(json_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json_quote("line\nnext\ttab\r\b\f"), "\"line\\nnext\\ttab\\r\\b\\f\"");
  EXPECT_EQ(json_quote(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(json_quote("µs → ok"), "\"µs → ok\"");  // UTF-8 passes through
  EXPECT_EQ(json_quote(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  // Bytes that are not UTF-8 (a file name may hold any) become U+FFFD: JSON is UTF-8.
  EXPECT_EQ(json_quote("a\xFF\xC0\xAF" "b"), "\"a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "b\"");
  EXPECT_EQ(json_quote("\xE2\x86"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

TEST(Json, Numbers) {
  EXPECT_EQ(Json(std::int64_t{-9007199254740993}).dump(), "-9007199254740993");
  EXPECT_EQ(Json(std::numeric_limits<std::int64_t>::max()).dump(), "9223372036854775807");
  EXPECT_EQ(Json(0.1).dump(), "0.1");
  EXPECT_EQ(Json(3.0).dump(), "3.0");  // stays a double when read back
  EXPECT_EQ(Json(1e300).dump(), "1e+300");
  EXPECT_EQ(Json(4.1e-4).dump(), "0.00041");
  EXPECT_EQ(Json(std::nan("")).dump(), "null");
  EXPECT_EQ(Json(std::numeric_limits<double>::infinity()).dump(), "null");
  EXPECT_EQ(Json::parse("3.0").kind(), Json::Kind::number);
  EXPECT_EQ(Json::parse("3").kind(), Json::Kind::integer);
  EXPECT_EQ(Json::parse("-0.125e1").as_double(), -1.25);
  EXPECT_EQ(Json::parse("18446744073709551616").kind(), Json::Kind::number);  // past int64
  EXPECT_EQ(Json::parse("12").as_double(), 12.0);
}

TEST(Json, RoundTrips) {
  Json doc = Json::object()
                 .set("s", "quote \" backslash \\ newline \n unicode é")
                 .set("i", -42)
                 .set("d", 2.5e-7)
                 .set("b", false)
                 .set("n", nullptr)
                 .set("a", Json::array().push(Json::array()).push(Json::object().set("k", 1)));
  for (int indent : {0, 2, 4}) {
    const Json back = Json::parse(doc.dump(indent));
    EXPECT_EQ(back.dump(), doc.dump()) << indent;
  }
  EXPECT_EQ(Json::parse("\"\\u00e9\\ud83d\\ude00\\/\"").as_string(), "é😀/");
  const Json parsed = Json::parse(" {\"a\" : [1, {\"b\": null}], \"c\": true} ");
  EXPECT_TRUE(parsed["a"][1]["b"].is_null());
  EXPECT_TRUE(parsed["c"].as_bool());
  EXPECT_EQ(parsed.find("missing"), nullptr);
  EXPECT_THROW(parsed["missing"], std::logic_error);
  EXPECT_THROW(parsed["a"].as_string(), std::logic_error);
  EXPECT_THROW(parsed["a"][2], std::logic_error);
}

TEST(Json, RejectsMalformedText) {
  for (const char* text : {"", "{", "[1,]", "{\"a\":1,}", "{a:1}", "01", "1.", "-", "1e",
                           "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"", "tru", "nul",
                           "[1] 2", "\"tab\there\"", "{\"a\" 1}", "[1 2]"}) {
    SCOPED_TRACE(text);
    EXPECT_THROW(Json::parse(text), std::runtime_error);
  }
  try {
    Json::parse("{\n  \"a\": [1,\n  ]\n}");
    FAIL();
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "JSON 3:3: expected a value");
  }
  EXPECT_THROW(Json::parse(std::string(100000, '[')), std::runtime_error);  // no stack overflow
}

TEST(Json, RejectsARepeatedKeyAtItsPosition) {
  try {
    Json::parse("{\n  \"layers\": 48,\n  \"layers\": 2\n}");
    FAIL() << "accepted a repeated key";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "JSON 3:3: duplicate key 'layers'");
  }
  EXPECT_THROW(Json::parse(R"({"a": {"b": 1, "b": 1}})"), std::runtime_error);  // nested too
  // The same key in sibling objects is no repeat.
  EXPECT_EQ(Json::parse(R"([{"a": 1}, {"a": 2}])")[1]["a"].as_int(), 2);

  // In a large object (found by sorting) the error is at the first key that repeats, in text order,
  // whatever the keys' sorted order; an escaped spelling is the same key.
  std::string large = "{";
  for (int i = 0; i < 1000; ++i) large += "\"k" + std::to_string(i) + "\": 0,\n";
  try {
    Json::parse(large + "\"z\": 1,\n\"k\\u0037\": 1,\n\"k1\": 2}");
    FAIL() << "accepted a repeated key";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "JSON 1002:1: duplicate key 'k7'");
  }
  EXPECT_EQ(Json::parse(large + "\"z\": 1}").size(), 1001u);
  // Found as the key is read: before a nested object's repeat that closes first, and before any
  // streamed item is handed over.
  try {
    Json::parse(R"({"a": 1, "a": 2, "b": {"c": 1, "c": 2}})");
    FAIL() << "accepted a repeated key";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "JSON 1:10: duplicate key 'a'");
  }
  EXPECT_THROW(Json::parse(R"({"x": 1, "x": 2, "events": [1]})", "events",
                           [](Json, Json::ItemPlace) { FAIL() << "handed an item"; }),
               std::runtime_error);
}

TEST(Json, StreamsTheItemsOfOneTopLevelArray) {
  std::vector<std::pair<std::int64_t, std::size_t>> seen;
  const Json document = Json::parse(
      R"({"meta": [1, 2], "events": [{"v": 10}, {"v": 11}, {"v": 12}], "tail": {"events": [5]}})",
      "events", [&](Json item, Json::ItemPlace place) {
        seen.emplace_back(item["v"].as_int(), place.index);
      });
  EXPECT_EQ(seen, (std::vector<std::pair<std::int64_t, std::size_t>>{{10, 0}, {11, 1}, {12, 2}}));
  EXPECT_EQ(document["events"].kind(), Json::Kind::array);
  EXPECT_EQ(document["events"].size(), 0u);     // handed over, not kept
  EXPECT_EQ(document["meta"].size(), 2u);       // other members as parse() reads them
  EXPECT_EQ(document["tail"]["events"].size(), 1u);  // only the top level's member streams

  // Each item's line, where it begins, for errors about what it holds.
  std::vector<int> lines;
  Json::parse("{\"events\": [1,\n  {\"a\":\n 2}, \"x\",\n\n  3]}", "events",
              [&](Json, Json::ItemPlace place) { lines.push_back(place.line); });
  EXPECT_EQ(lines, (std::vector<int>{1, 2, 3, 5}));

  // A member of another kind stays in the document; an error inside an item names its place; what
  // the handler throws ends the parse.
  const auto never = [](Json, Json::ItemPlace) { FAIL() << "handed an item"; };
  EXPECT_EQ(Json::parse(R"({"events": 3})", "events", never)["events"].as_int(), 3);
  try {
    Json::parse("{\"events\": [\n  {\"v\": 1},\n  {\"v\" 2}\n]}", "events",
                [](Json, Json::ItemPlace) {});
    FAIL() << "accepted a malformed item";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "JSON 3:8: expected ':'");
  }
  EXPECT_THROW(Json::parse(R"({"events": [1, 2]})", "events",
                           [](Json, Json::ItemPlace place) {
                             if (place.index == 1) throw std::out_of_range("second");
                           }),
               std::out_of_range);
}

TEST(Json, RefusesMoreValuesThanItHoldsButStreamsAnyNumber) {
  std::string many = "[";
  for (int i = 0; i < (1 << 21); ++i) many += "0,";
  try {
    Json::parse(many + "0]");
    FAIL() << "held more than 2^21 values";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("more than 2097152 values"), std::string::npos)
        << error.what();
  }
  std::size_t count = 0;
  Json::parse("{\"items\": " + many + "0]}", "items", [&](Json, Json::ItemPlace) { ++count; });
  EXPECT_EQ(count, (1u << 21) + 1);

  // A streamed item is one event: at most 2^16 values (itself included).
  std::string item = "[";
  for (int i = 0; i < (1 << 16) - 2; ++i) item += "0,";
  EXPECT_NO_THROW(
      Json::parse("{\"items\": [" + item + "0]]}", "items", [](Json, Json::ItemPlace) {}));
  try {
    Json::parse("{\"items\": [1, " + item + "0, 0]]}", "items", [](Json, Json::ItemPlace) {});
    FAIL() << "held an item of more than 2^16 values";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("an item of 'items' with more than 65536 values: too large an item"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace layoutcheck
