// The contract model: element names and parsing, global ids, the CuTe-style print, and the
// invariant every fast path relies on: for_each_offset(i) == offset_of_linear(i), checked on many
// hand-picked layouts the way CuTe's tests check coalesce(layout)(i) == layout(i).
#include "layoutcheck/contract/contract.h"

#include <gtest/gtest.h>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

Mode mode(std::int64_t size, std::int64_t stride) {
  return Mode{"", size, stride, {}};
}
Dim dim(std::string name, std::vector<Mode> modes) {
  return Dim{std::move(name), std::move(modes), {}};
}
Field field(std::string name, std::int64_t offset, std::vector<Dim> dims) {
  Field f;
  f.name = std::move(name);
  f.offset = offset;
  f.dims = std::move(dims);
  return f;
}

// Qwen3-Next qkvz at 16/48/128/128 written in code: V = ((3,16),128):((128,1024),1) @ 256.
Contract interleaved_qkvz() {
  Contract c;
  c.name = "qkvz";
  const std::int64_t group = 2 * 128 + 2 * 3 * 128;
  c.fields.push_back(field("Q", 0, {dim("h", {mode(16, group)}), dim("k", {mode(128, 1)})}));
  c.fields.push_back(field("K", 128, {dim("h", {mode(16, group)}), dim("k", {mode(128, 1)})}));
  c.fields.push_back(
      field("V", 256, {dim("hv", {mode(3, 128), mode(16, group)}), dim("v", {mode(128, 1)})}));
  c.fields.push_back(
      field("Z", 640, {dim("hv", {mode(3, 128), mode(16, group)}), dim("v", {mode(128, 1)})}));
  c.row_size = 16 * group;
  return c;
}

void check_offset_invariants(const Field& f) {
  SCOPED_TRACE(f.layout_string());
  std::int64_t expected_linear = 0;
  bool in_order = true, equal = true;
  f.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    in_order = in_order && linear == expected_linear++;
    equal = equal && offset == f.offset_of_linear(linear) &&
            offset == f.offset_of(f.unravel(linear)) && f.ravel(f.unravel(linear)) == linear;
  });
  EXPECT_TRUE(in_order);
  EXPECT_TRUE(equal);
  EXPECT_EQ(expected_linear, f.elements());
  const std::vector<std::int64_t> table = f.offsets();
  ASSERT_EQ(static_cast<std::int64_t>(table.size()), f.elements());
  for (std::int64_t linear = 0; linear < f.elements(); ++linear)
    ASSERT_EQ(table[static_cast<std::size_t>(linear)], f.offset_of_linear(linear)) << linear;
}

TEST(Field, ForEachOffsetMatchesOffsetOfLinear) {
  const std::vector<Field> layouts = {
      field("a", 0, {dim("i", {mode(1, 0)})}),
      field("a", 5, {dim("i", {mode(37, 1)})}),
      field("a", 0, {dim("i", {mode(7, 3)})}),
      field("a", 2, {dim("i", {mode(3, 5)}), dim("j", {mode(5, 1)})}),
      field("a", 0, {dim("i", {mode(5, 1)}), dim("j", {mode(3, 5)})}),  // column-major
      field("a", 0, {dim("i", {mode(3, 7), mode(4, 1)})}),              // split, fast mode strided
      field("a", 9, {dim("i", {mode(2, 1), mode(3, 10), mode(5, 2)}), dim("j", {mode(7, 100)})}),
      field("a", 0,
            {dim("i", {mode(1, 99), mode(6, 1)}), dim("j", {mode(1, 0)}), dim("k", {mode(4, 6)})}),
      field("a", 0, {dim("i", {mode(4, 0)}), dim("j", {mode(3, 1)})}),  // broadcast
      field("a", 1,
            {dim("a", {mode(2, 1)}), dim("b", {mode(3, 2)}), dim("c", {mode(5, 6)}),
             dim("d", {mode(7, 30)})}),
      field("a", 0, {dim("hv", {mode(3, 128), mode(16, 1024)}), dim("v", {mode(128, 1)})}),
      field("a", 0, {dim("hv", {mode(9, 7), mode(3, 77)}), dim("v", {mode(7, 1)})}),
      field("a", 0, {dim("i", {mode(65, 1)}), dim("j", {mode(377, 65)})}),
  };
  for (const Field& f : layouts) check_offset_invariants(f);
  for (const Field& f : interleaved_qkvz().fields) check_offset_invariants(f);
}

TEST(Field, SplitDimDecomposesFastestFirst) {
  const Field v = interleaved_qkvz().fields[2];
  // hv = h*G + r with G = 3: hv 7 is r = 1, h = 2.
  EXPECT_EQ(v.dims[0].offset_of(7), 1 * 128 + 2 * 1024);
  const std::vector<std::int64_t> index = {7, 8};
  EXPECT_EQ(v.offset_of(index), 256 + 128 + 2048 + 8);
  EXPECT_EQ(v.shape(), (std::vector<std::int64_t>{48, 128}));
  EXPECT_EQ(v.elements(), 48 * 128);
}

TEST(Field, LayoutString) {
  const Contract c = interleaved_qkvz();
  EXPECT_EQ(c.fields[0].layout_string(), "(16,128):(1024,1)");
  EXPECT_EQ(c.fields[2].layout_string(), "((3,16),128):((128,1024),1)");
  EXPECT_EQ(field("B", 0, {dim("hv", {mode(48, 1)})}).layout_string(), "(48):(1)");
}

TEST(Contract, GlobalIdsRunThroughTheFieldsInOrder) {
  const Contract c = interleaved_qkvz();
  EXPECT_EQ(c.elements(), 16384);
  EXPECT_EQ(c.global_id({0, 0}), 0);
  EXPECT_EQ(c.global_id({1, 5}), 2048 + 5);
  EXPECT_EQ(c.global_id({3, 0}), 2048 * 2 + 6144);
  for (std::int64_t id : {0, 1, 2047, 2048, 4095, 4096, 10239, 10240, 16383}) {
    const ElementRef e = c.element_from_global(id);
    EXPECT_EQ(c.global_id(e), id);
  }
  EXPECT_THROW(c.element_from_global(16384), InputError);
}

TEST(Contract, ElementNamesRoundTrip) {
  const Contract c = interleaved_qkvz();
  EXPECT_EQ(c.element_name({2, 7 * 128 + 8}), "V[7,8]");
  for (const char* text : {"V[7,8]", "V[7, 8]", " V[ 7 ,8 ] "}) {
    const ElementRef e = c.parse_element(text);
    EXPECT_EQ(e.field, 2u);
    EXPECT_EQ(e.linear, 7 * 128 + 8);
  }
  EXPECT_EQ(c.offset_of(c.parse_element("V[7,8]")), 256 + 128 + 2048 + 8);
  for (std::int64_t id = 0; id < c.elements(); id += 97)
    EXPECT_EQ(c.global_id(c.parse_element(c.element_name(c.element_from_global(id)))), id);
}

std::string element_error(const Contract& c, const char* text) {
  try {
    c.parse_element(text);
  } catch (const InputError& error) {
    EXPECT_EQ(error.diagnostics()[0].rule, "element");
    return error.diagnostics()[0].message;
  }
  ADD_FAILURE() << text << " parsed";
  return "";
}

TEST(Contract, ParseElementErrorsSayWhatIsWrong) {
  const Contract c = interleaved_qkvz();
  EXPECT_EQ(element_error(c, "W[1,2]"), "no field 'W' in qkvz (fields: Q, K, V, Z)");
  EXPECT_EQ(element_error(c, "V[7]"),
            "V has 2 dims [hv, v] of sizes [48,128]; element 'V[7]' gives 1");
  EXPECT_EQ(element_error(c, "V[48,0]"), "index 48 is out of range for dim 'hv' of V (size 48)");
  EXPECT_NE(element_error(c, "V[7,-1]").find("'-1'"), std::string::npos);
  EXPECT_NE(element_error(c, "V[7,]").find("not a non-negative integer"), std::string::npos);
  EXPECT_NE(element_error(c, "V7,8").find("FIELD[i,j,...]"), std::string::npos);
  EXPECT_NE(element_error(c, "V[]").find("gives 0"), std::string::npos);
  EXPECT_NE(element_error(c, "V[99999999999999999999,1]").find("not a non-negative"),
            std::string::npos);
}

TEST(DType, NamesAndSizes) {
  EXPECT_EQ(dtype_name(DType::bf16), "bf16");
  EXPECT_EQ(dtype_from_name("fp32"), DType::fp32);
  EXPECT_FALSE(dtype_from_name("bf32").has_value());
  EXPECT_EQ(dtype_bytes(DType::bf16), 2);
  EXPECT_EQ(dtype_bytes(DType::fp64), 8);
  EXPECT_EQ(dtype_bytes(DType::u8), 1);
}

TEST(Diagnostic, PrintsFileLineColumnRuleAndFix) {
  const Diagnostic d{{"qkvz.yaml", 12, 7},
                     Severity::error,
                     "overlap",
                     "V[0,0] and Q[1,0] both map to offset 128",
                     "fix the strides"};
  EXPECT_EQ(d.str(),
            "qkvz.yaml:12:7: error[overlap]: V[0,0] and Q[1,0] both map to offset 128 (fix: fix "
            "the strides)");
  EXPECT_EQ((SourceLocation{"<command line>"}).str(), "<command line>");
  EXPECT_TRUE(has_errors({d}));
  EXPECT_FALSE(has_errors({Diagnostic{{}, Severity::warning, "x", "y", ""}}));
  EXPECT_EQ(closest_name("strdie", {"name", "size", "stride", "modes"}), "stride");
  EXPECT_EQ(closest_name("xyzzy", {"name", "size", "stride", "modes"}), "");
}

// A name from a hostile file reaches the terminal without its control characters.
TEST(Diagnostic, ControlCharactersArePrintedAsEscapes) {
  const Diagnostic d{{"a\nb.yaml", 1, 2}, Severity::error, "name",
                     "field name '\x1b[31mQ' is not a name", ""};
  EXPECT_EQ(d.str(), "a\\x0ab.yaml:1:2: error[name]: field name '\\x1b[31mQ' is not a name");
  EXPECT_EQ(printable("tab\there \x7f"), "tab\\x09here \\x7f");
  EXPECT_EQ(printable("Q[0,1] \xc2\xb5s"), "Q[0,1] \xc2\xb5s");  // UTF-8 kept
}

}  // namespace
}  // namespace layoutcheck
