// Contract text pasted into generated C++: string literals keep every byte and end where they
// should, comments stay on their line and cannot end a block comment or splice the next line.
#include "layoutcheck/codegen/cpp_text.h"

#include <gtest/gtest.h>

namespace layoutcheck::codegen {
namespace {

TEST(CppText, StringLiteralEscapesWhatWouldEndOrChangeIt) {
  EXPECT_EQ(cpp_string_literal("qwen3_5.qkvz"), "\"qwen3_5.qkvz\"");
  EXPECT_EQ(cpp_string_literal("a\"b"), R"("a\"b")");
  EXPECT_EQ(cpp_string_literal("a\\b"), R"("a\\b")");
  EXPECT_EQ(cpp_string_literal("a\nb\tc"), R"("a\nb\tc")");
  EXPECT_EQ(cpp_string_literal("?\?/"), R"("\?\?/")");
  // Octal escapes end after three digits, so a digit after one is not swallowed.
  EXPECT_EQ(cpp_string_literal(std::string("\x01"
                                           "7",
                                           2)),
            R"("\0017")");
  EXPECT_EQ(cpp_string_literal("*/ é"), "\"*/ é\"");
}

TEST(CppText, CommentTextStaysOneSafeLine) {
  EXPECT_EQ(cpp_comment_text("key heads"), "key heads");
  EXPECT_EQ(cpp_comment_text("a\n#define X 1"), "a #define X 1");
  EXPECT_EQ(cpp_comment_text("a\r\nb"), "a  b");
  EXPECT_EQ(cpp_comment_text("ends */ here"), "ends * / here");
  EXPECT_EQ(cpp_comment_text("what?\?/"), "what? ?/");
  EXPECT_EQ(cpp_comment_text("C:\\dir\\"), "C:\\dir\\.");
  EXPECT_EQ(cpp_comment_text("C:\\dir\\ \n"), "C:\\dir\\.");
}

TEST(CppText, KeywordsIncludeAlternativeTokensAndCpp20) {
  for (const char* keyword : {"int", "class", "new", "and", "xor_eq", "co_await", "requires"})
    EXPECT_TRUE(is_cpp_keyword(keyword)) << keyword;
  for (const char* name : {"H", "HV", "Index", "s", "int_", "override"})
    EXPECT_FALSE(is_cpp_keyword(name)) << name;
}

}  // namespace
}  // namespace layoutcheck::codegen
