// Reading contracts: defaults, --set, derived symbols, locations, and the errors the corpus in
// tests/bad_contracts does not pin down one by one.
#include "layoutcheck/contract/parse.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace layoutcheck {
namespace {

const char* kHeader =
    "layoutcheck: 1\n"
    "name: t\n"
    "buffer: b\n"
    "dtype: bf16\n";

ParseResult parse(const std::string& body, LoadOptions options = {}) {
  return parse_contract_text(kHeader + body, "t.yaml", options);
}

// "line:col rule" of every diagnostic, for compact assertions.
std::vector<std::string> summary(const ParseResult& result) {
  std::vector<std::string> lines;
  for (const Diagnostic& d : result.diagnostics)
    lines.push_back(std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + " " +
                    d.rule);
  return lines;
}

const std::string kSplit =
    "symbols:\n"         // 5
    "  H: 4\n"           // 6
    "  HV: 12\n"         // 7
    "  V: 8\n"           // 8
    "  G: HV / H\n"      // 9
    "rows:\n"            // 10
    "  - name: token\n"  // 11
    "fields:\n"          // 12
    "  - name: V\n"      // 13
    "    dims:\n"        // 14
    "      - name: hv\n"
    "        modes:\n"
    "          - {name: r, size: G, stride: V}\n"
    "          - {name: h, size: H, stride: G*V}\n"
    "      - {name: v, size: V, stride: 1}\n";

TEST(Parse, ResolvesSymbolsAndDefaults) {
  const ParseResult result = parse(kSplit);
  ASSERT_TRUE(result.contract) << (result.diagnostics.empty() ? "" : result.diagnostics[0].str());
  const Contract& c = *result.contract;
  EXPECT_EQ(c.name, "t");
  EXPECT_EQ(c.buffer, "b");
  EXPECT_EQ(c.dtype, DType::bf16);
  EXPECT_EQ(c.symbol("G"), 3);
  ASSERT_EQ(c.symbols.size(), 4u);
  EXPECT_TRUE(c.symbols[3].derived_from.has_value());
  EXPECT_EQ(c.row_size, 96);  // not declared: highest offset + 1
  EXPECT_FALSE(c.row_size_declared);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].stride, 96);  // defaults to row_size
  EXPECT_EQ(c.fields[0].layout_string(), "((3,4),8):((8,24),1)");
  EXPECT_EQ(c.fields[0].where.line, 13);
  EXPECT_EQ(c.fields[0].dims[0].modes[1].name, "h");
  // Expressions as written, for codegen.
  EXPECT_EQ(c.fields[0].offset_text, "0");
  EXPECT_EQ(c.fields[0].dims[0].modes[1].size_text, "H");
  EXPECT_EQ(c.fields[0].dims[0].modes[1].stride_text, "G*V");
  EXPECT_EQ(c.fields[0].dims[1].modes[0].size_text, "V");
  EXPECT_EQ(c.fields[0].dims[1].modes[0].stride_text, "1");
}

TEST(Parse, SetRecomputesDerivedSymbols) {
  LoadOptions options;
  options.overrides = {{"HV", 8}, {"V", 2}};
  const ParseResult result = parse(kSplit, options);
  ASSERT_TRUE(result.contract);
  EXPECT_EQ(result.contract->symbol("G"), 2);
  EXPECT_TRUE(result.contract->symbols[1].overridden);
  EXPECT_EQ(result.contract->row_size, 16);
}

TEST(Parse, SetOfDerivedOrUnknownSymbolIsAnError) {
  LoadOptions options;
  options.overrides = {{"G", 2}, {"HX", 1}};
  const ParseResult result = parse(kSplit, options);
  EXPECT_FALSE(result.contract);
  ASSERT_EQ(result.diagnostics.size(), 2u);
  EXPECT_EQ(result.diagnostics[0].rule, "derived-symbol");
  EXPECT_EQ(result.diagnostics[0].message,
            "--set G=2: G is derived (G = HV / H) and cannot be set");
  EXPECT_EQ(result.diagnostics[0].fix, "set HV or H instead");
  EXPECT_EQ(result.diagnostics[1].rule, "unknown-symbol");
  EXPECT_NE(result.diagnostics[1].fix.find("did you mean 'H'"), std::string::npos);
  options.overrides = {{"HX", 1}};
  options.ignore_unknown_overrides = true;
  EXPECT_TRUE(parse(kSplit, options).contract);
}

// Derived symbols may use symbols listed after them; a symbol defined from itself, directly or
// through others, is named as such (not as "undefined"), and a symbol that only uses the cycle
// fails quietly, as one using any failed symbol does.
TEST(Parse, DerivedSymbolsResolveInAnyOrderAndCyclesAreNamed) {
  const ParseResult ordered = parse(
      "symbols: {A: C + 1, C: B * 2, B: 2}\n"
      "fields:\n  - {name: Q, dims: [{name: h, size: A, stride: 1}]}\n");
  ASSERT_TRUE(ordered.contract) << summary(ordered).size();
  EXPECT_EQ(ordered.contract->row_size, 5);

  const ParseResult self = parse(
      "symbols:\n  A: A + 1\n"
      "fields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n");
  ASSERT_EQ(self.diagnostics.size(), 1u);
  EXPECT_EQ(self.diagnostics[0].message, "symbol 'A' is defined from itself");

  const ParseResult cycle = parse(
      "symbols:\n  D: A + E\n  E: D\n  A: 3\n  F: E + 1\n"
      "fields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n");
  EXPECT_EQ(summary(cycle),
            (std::vector<std::string>{"6:3 undefined-symbol", "7:3 undefined-symbol"}));
  ASSERT_EQ(cycle.diagnostics.size(), 2u);
  EXPECT_EQ(cycle.diagnostics[0].message,
            "symbol 'D' depends on itself (symbols D, E are defined from each other)");
}

TEST(Parse, FailedSymbolDoesNotCascade) {
  LoadOptions options;
  options.overrides = {{"HV", 10}};
  const ParseResult result = parse(kSplit, options);
  EXPECT_EQ(summary(result), (std::vector<std::string>{"9:9 divisibility"}));
}

TEST(Parse, QuotedExpressionColumnsPointIntoTheString) {
  const ParseResult result = parse(
      "fields:\n"
      "  - name: Q\n"
      "    dims:\n"
      "      - {name: h, size: \"4 / 3\", stride: 'X'}\n");
  // size's '"' is column 25, so '/' is column 28; stride's quote is column 42, 'X' column 43.
  EXPECT_EQ(summary(result),
            (std::vector<std::string>{"8:28 divisibility", "8:43 undefined-symbol"}));
}

TEST(Parse, CollectsEveryErrorInFileOrder) {
  const ParseResult result = parse(
      "symbols: {A: 1, A: 2}\n"                                                 // 5
      "fields:\n"                                                               // 6
      "  - name: 1Q\n"                                                          // 7
      "    dims:\n"                                                             // 8
      "      - {name: h, size: 0, stride: -2}\n"                                // 9
      "      - {name: k, size: 2, stride: 1, modes: [{size: 2, stride: 1}]}\n"  // 10
      "  - name: P\n"                                                           // 11
      "    offest: 3\n"                                                         // 12
      "    dims: {}\n"                                                          // 13
      "    may_alias: P\n"                                                      // 14
      "padding:\n"                                                              // 15
      "  - {name: p, offset: 0, size: 1, fill: x}\n"                            // 16
      "rows: 3\n");                                                             // 17
  EXPECT_FALSE(result.contract);
  EXPECT_EQ(summary(result),
            (std::vector<std::string>{"5:17 duplicate-key", "7:11 name", "9:25 size",
                                      "9:36 negative", "10:28 type", "12:5 unknown-key",
                                      "13:11 type", "14:16 type", "16:41 type", "17:7 type"}));
}

// Dim names index a field and mode names a dim (explain, codegen's parameters): each once.
TEST(Parse, DimAndModeNamesAreUniqueWithinTheirOwner) {
  const ParseResult result = parse(
      "fields:\n"                                // 5
      "  - name: Q\n"                            // 6
      "    dims:\n"                              // 7
      "      - {name: h, size: 2, stride: 6}\n"  // 8
      "      - name: h\n"                        // 9
      "        modes: [{name: r, size: 2, stride: 1}, {name: r, size: 3, stride: 2}]\n"
      "  - name: K\n"                                  // 11
      "    offset: 12\n"                               // 12
      "    dims: [{name: h, size: 2, stride: 1}]\n");  // 13
  EXPECT_EQ(summary(result), (std::vector<std::string>{"9:9 name", "10:48 name"}));
  ASSERT_EQ(result.diagnostics.size(), 2u);
  EXPECT_EQ(result.diagnostics[0].message,
            "dim name 'h' is used twice in field 'Q' (first at line 8)");
  EXPECT_EQ(result.diagnostics[1].message,
            "mode name 'r' is used twice in dim 'h' of field 'Q' (first at line 10)");
  // The same dim name in another field, and unnamed modes, are fine.
  EXPECT_TRUE(parse("fields:\n"
                    "  - {name: Q, dims: [{name: h, size: 2, stride: 1}]}\n"
                    "  - name: K\n"
                    "    offset: 2\n"
                    "    dims:\n"
                    "      - name: h\n"
                    "        modes: [{size: 2, stride: 1}, {size: 2, stride: 2}]\n")
                  .diagnostics.empty());
}

TEST(Parse, WrongTypesNameWhatWasExpected) {
  const auto first_message = [](const std::string& body) {
    const ParseResult result = parse(body);
    return result.diagnostics.empty() ? std::string("(none)") : result.diagnostics[0].message;
  };
  EXPECT_EQ(first_message("fields: {}\n"), "fields must be a list, got a mapping");
  EXPECT_EQ(first_message("symbols: [1]\nfields: []\n"), "symbols must be a mapping, got a list");
  EXPECT_EQ(first_message("fields:\n  - name: [Q]\n    dims: [{name: h, size: 1, stride: 1}]\n"),
            "field name must be a string, got a list");
  EXPECT_EQ(first_message("fields:\n  - Q\n"), "a field must be a mapping, got the scalar 'Q'");
  EXPECT_EQ(first_message("fields:\n  - name: Q\n    dims: [{name: h, size: [2], stride: 1}]\n"),
            "size of dim 'h' of field 'Q' must be an integer or an expression string, got a list");
  EXPECT_EQ(first_message("fields: []\n"), "fields is empty");
  EXPECT_EQ(first_message("fields:\n  - name: Q\n    dims: []\n"), "dims of field 'Q' is empty");
  EXPECT_EQ(first_message("fields:\n  - name: Q\n    dims:\n      - {name: h, size:, stride: 1}\n"),
            "size of dim 'h' of field 'Q' must be an integer or an expression string, got nothing "
            "(null)");
}

TEST(Parse, MalformedYamlNamesLineAndColumn) {
  const ParseResult result = parse_contract_text("a: [1, 2\nb: 3\n", "m.yaml");
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].rule, "yaml");
  EXPECT_EQ(result.diagnostics[0].where.str(), "m.yaml:2:2");
  for (const char* text :
       {"\t- x", "{", "[[[[[[[[[[", "a: b: c", "- a\nb: c", "&a [*b]", "\"\\q\""}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(parse_contract_text(text, "m.yaml").contract);
  }
}

TEST(Parse, AliasesWorkWithinCaps) {
  // A plain alias is just a copy.
  EXPECT_TRUE(parse("symbols: {H: 4}\n"
                    "fields:\n"
                    "  - {name: Q, dims: &d [{name: h, size: H, stride: 1}]}\n"
                    "  - {name: K, offset: 4, dims: *d}\n")
                  .contract);
  // A self-referencing alias, and aliases that expand to 10^9 nodes, are refused quickly.
  std::string laughs = "x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  for (int i = 1; i < 9; ++i) {
    laughs += "x" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) laughs += (j ? ", *a" : "*a") + std::to_string(i - 1);
    laughs += "]\n";
  }
  const ParseResult cyclic = parse("fields: &f\n  - {name: Q, dims: *f}\n");
  ASSERT_EQ(cyclic.diagnostics.size(), 1u);
  EXPECT_EQ(cyclic.diagnostics[0].rule, "yaml");
  EXPECT_NE(cyclic.diagnostics[0].message.find("nested deeper than"), std::string::npos)
      << cyclic.diagnostics[0].message;
  const ParseResult bomb = parse(laughs);
  ASSERT_EQ(bomb.diagnostics.size(), 1u);
  EXPECT_EQ(bomb.diagnostics[0].rule, "yaml");
  EXPECT_NE(bomb.diagnostics[0].message.find("aliases counted as often as they are used"),
            std::string::npos)
      << bomb.diagnostics[0].message;
  EXPECT_GT(bomb.diagnostics[0].where.line, 1);  // where the count ran out, not the top
  // Few nodes, but one long anchor named by many aliases: gigabytes of text once copied.
  std::string long_text = "description: &d " + std::string(1 << 20, 'x') + "\nfields:\n";
  for (int i = 0; i < 40; ++i)
    long_text += "  - {name: F" + std::to_string(i) + ", description: *d, dims: []}\n";
  const ParseResult text_bomb = parse(long_text);
  ASSERT_EQ(text_bomb.diagnostics.size(), 1u);
  EXPECT_EQ(text_bomb.diagnostics[0].rule, "yaml");
  EXPECT_NE(text_bomb.diagnostics[0].message.find("text is more than 16 MiB, aliases counted"),
            std::string::npos)
      << text_bomb.diagnostics[0].message;
  EXPECT_GT(text_bomb.diagnostics[0].where.line, 2);
}

TEST(Parse, PaddingAndDeclaredRowSize) {
  const ParseResult result = parse(
      "row_size: 12\n"
      "fields:\n"
      "  - {name: Q, offset: 2, dims: [{name: h, size: 4, stride: 1}]}\n"
      "padding:\n"
      "  - {name: head, offset: 0, size: 2}\n"
      "  - {name: tail, offset: 6, size: 6, fill: -1.5}\n");
  ASSERT_TRUE(result.contract);
  const Contract& c = *result.contract;
  EXPECT_EQ(c.row_size, 12);
  EXPECT_TRUE(c.row_size_declared);
  EXPECT_EQ(c.row_size_where.line, 5);
  ASSERT_EQ(c.padding.size(), 2u);
  EXPECT_FALSE(c.padding[0].fill.has_value());
  EXPECT_EQ(c.padding[1].fill, -1.5);
  EXPECT_EQ(c.padding[1].size, 6);
}

TEST(Parse, ElementCapIsAnOption) {
  const std::string body = "fields:\n  - {name: Q, dims: [{name: h, size: 3000, stride: 1}]}\n";
  EXPECT_TRUE(parse(body).contract);
  LoadOptions options;
  options.element_cap = 2000;
  const ParseResult result = parse(body, options);
  ASSERT_EQ(result.diagnostics.size(), 1u);
  EXPECT_EQ(result.diagnostics[0].rule, "element-cap");
  EXPECT_NE(result.diagnostics[0].fix.find("--max-elements"), std::string::npos);
}

TEST(LoadContract, ThrowsEveryErrorAndDropsWarnings) {
  try {
    load_contract_text(std::string(kHeader) +
                           "fields:\n  - {name: Q, dims: [{name: h, size: H, stride: 1}]}\n"
                           "  - {name: K, dims: [{name: h, size: 4, stride: Y}]}\n",
                       "t.yaml");
    FAIL();
  } catch (const InputError& error) {
    ASSERT_EQ(error.diagnostics().size(), 2u);
    EXPECT_NE(std::string(error.what())
                  .find("t.yaml:6:38: error[undefined-symbol]: undefined symbol 'H'"),
              std::string::npos);
    EXPECT_EQ(error.diagnostics()[1].where.str(), "t.yaml:7:49");
  }
  // Stride 0 with declared self-aliasing is only a warning: the contract loads.
  const Contract c = load_contract_text(
      std::string(kHeader) +
          "fields:\n  - {name: Q, may_alias: [Q], dims: [{name: h, size: 4, stride: 0}]}\n",
      "t.yaml");
  EXPECT_EQ(c.row_size, 1);
  EXPECT_THROW(load_contract("/nonexistent/x.yaml"), InputError);
}

// A contract may come through a pipe (`lint <(generate)`, `lint /dev/stdin`): read as a stream.
TEST(LoadContract, ReadsFromAPipe) {
  int ends[2];
  ASSERT_EQ(pipe(ends), 0);
  const std::string text = std::string(kHeader) +
                           "symbols: {H: 4}\n"
                           "fields:\n  - {name: Q, dims: [{name: h, size: H, stride: 1}]}\n";
  ASSERT_EQ(write(ends[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(ends[1]);
  const std::string path = "/dev/fd/" + std::to_string(ends[0]);
  const Contract contract = load_contract(path);
  close(ends[0]);
  EXPECT_EQ(contract.row_size, 4);
  try {
    load_contract("/nonexistent/x.yaml");
    FAIL();
  } catch (const InputError& error) {  // the reason, not only the path
    EXPECT_NE(std::string(error.what()).find("No such file or directory"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// A name or description holding an escape sequence (or any control character but tab and newline,
// DEL, a C1 control) would reach a reviewer's terminal raw: refused where it is written.
TEST(Parse, ControlCharactersInStringsAreRefused) {
  const std::string field = "fields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n";
  for (const std::string& text : {std::string("\\e[2J"), std::string("\\x7F"), std::string("\\u0085"),
                                  std::string("\\a")}) {
    SCOPED_TRACE(text);
    const ParseResult result = parse_contract_text(
        "layoutcheck: 1\nname: \"evil" + text + "\"\nbuffer: b\ndtype: bf16\n" + field, "t.yaml");
    EXPECT_EQ(summary(result), (std::vector<std::string>{"2:7 control-character"}));
  }
  const ParseResult described = parse_contract_text(
      "layoutcheck: 1\nname: fine\nbuffer: b\ndtype: bf16\ndescription: \"two\\n\\tlines\"\n" +
          field,
      "t.yaml");
  EXPECT_TRUE(described.contract) << (described.diagnostics.empty()
                                          ? ""
                                          : described.diagnostics[0].message);
}

// yaml-cpp's marks count the bytes after a byte order mark: a file that has one is read as one
// without it, quoted strings and their closing quotes included.
TEST(Parse, AByteOrderMarkMovesNoQuote) {
  const std::string body =
      "\"layoutcheck\": 1\n\"name\": t\n\"buffer\": b\n\"dtype\": bf16\n"
      "\"fields\": [{name: Q, dims: [{name: h, size: 4, stride: 1}]}]\n"
      "\"description\": 'plain note'\n";
  const ParseResult plain = parse_contract_text(body, "t.yaml");
  EXPECT_TRUE(plain.contract) << (plain.diagnostics.empty() ? "" : plain.diagnostics[0].message);
  const ParseResult marked = parse_contract_text("\xEF\xBB\xBF" + body, "t.yaml");
  EXPECT_TRUE(marked.contract) << (marked.diagnostics.empty() ? "" : marked.diagnostics[0].message);
}

TEST(Parse, StringsThatAreNotUtf8AreRefused) {
  const std::string field = "fields:\n  - {name: Q, dims: [{name: h, size: 4, stride: 1}]}\n";
  // A lone continuation byte, a truncated character, an overlong '/', a surrogate.
  for (const std::string& bytes : {std::string("\x80"), std::string("\xE2\x82"),
                                   std::string("\xC0\xAF"), std::string("\xED\xA0\x80")}) {
    SCOPED_TRACE(::testing::PrintToString(bytes));
    const ParseResult result = parse_contract_text(
        "layoutcheck: 1\nname: ab" + bytes + "\nbuffer: b\ndtype: bf16\n" + field, "t.yaml");
    EXPECT_EQ(summary(result), (std::vector<std::string>{"2:7 encoding"}));
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_NE(result.diagnostics[0].message.find("byte 3"), std::string::npos)
        << result.diagnostics[0].message;
  }
  const ParseResult accented = parse_contract_text(
      "layoutcheck: 1\nname: \"z\xC3\xA9ro \xE2\x86\x92 \xF0\x9F\x8C\x8D\"\nbuffer: b\n"
      "dtype: bf16\n" + field,
      "t.yaml");
  EXPECT_TRUE(accented.contract);
}

}  // namespace
}  // namespace layoutcheck
