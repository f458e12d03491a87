// The offset-header generator on contracts written in the test: symbolic expressions survive,
// split dims decompose fastest mode first, names that collide with C++ or symbols are renamed,
// and a header made from hostile names compiles with the host compiler and computes the
// contract's offsets.
#include "layoutcheck/codegen/offset_header.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/contract/read_file.h"
#include "scratch_folder.h"

namespace layoutcheck::codegen {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char* kSplit = R"(layoutcheck: 1
name: test.split
buffer: t
dtype: bf16
symbols:
  H: 2
  HV: 6
  G: HV / H
row_size: 2*HV
fields:
  - name: B
    offset: 0
    dims:
      - name: hv
        size: HV
        modes:
          - {name: r, size: G, stride: 1}
          - {name: h, size: H, stride: 2*G}
  - name: int
    offset: G
    dims:
      - name: hv
        size: HV
        modes:
          - {name: r, size: G, stride: 1}
          - {name: h, size: H, stride: 2*G}
)";

TEST(OffsetHeader, EmitsSymbolsDerivedSymbolsAndSplitModes) {
  const Contract contract = load_contract_text(kSplit, "split.yaml");
  const std::string header = generate_offset_header(contract, {"tests/split.yaml"});
  EXPECT_THAT(header, HasSubstr("namespace layoutcheck::contracts::test_split"));
  EXPECT_THAT(header, HasSubstr("Index H = 2;"));
  EXPECT_THAT(header, HasSubstr("Index HV = 6;"));
  EXPECT_THAT(header, HasSubstr("const Index G = HV / H;"));
  EXPECT_THAT(header, HasSubstr("const Index hv_r = hv % (G);"));
  EXPECT_THAT(header, HasSubstr("const Index hv_h = hv / (G);"));
  EXPECT_THAT(header, HasSubstr("offset_int_("));  // a C++ keyword as a field name
  EXPECT_THAT(header, HasSubstr("from tests/split.yaml"));
  EXPECT_THAT(header, Not(HasSubstr("#include")));
}

TEST(OffsetHeader, IsDeterministic) {
  const Contract contract = load_contract_text(kSplit, "split.yaml");
  EXPECT_EQ(generate_offset_header(contract, {"a"}), generate_offset_header(contract, {"a"}));
}

// Symbols named like the generator's own names (Index, s) and C++ keywords (int, class, new),
// one (int_) named like another's renaming, a dim named like a split dim's mode local (hv_r),
// a literal C++ would read as octal (010), "2--2" (C++'s decrement) and free text that would
// end a string literal, a comment or a line.
const char* kCollisions = R"(layoutcheck: 1
name: "t.names \"q\" */ \\ end\nnext"
buffer: "t\n#error buffer"
dtype: bf16
symbols:
  Index: 2
  s: 3
  int: 4
  class: 5
  new: 1
  int_: 1
  G: s * int / int
padding:
  - {name: "lead\n#error padding", offset: 0, size: 10}
fields:
  - name: Q
    description: "first\n#error description */ \\"
    offset: 010
    dims:
      - {name: s, size: Index, stride: 1}
      - {name: Index, size: s, stride: Index}
      - {name: class, size: int, stride: Index*s}
      - {name: "x\n#error dim", size: class, stride: Index*s*int}
  - name: class
    offset: 10 + Index*s*int*class
    dims:
      - name: int
        size: G*Index
        modes:
          - {name: new, size: G, stride: new}
          - {name: s, size: Index, stride: G}
  - name: hv
    offset: 136
    dims:
      - name: hv
        modes:
          - {name: r, size: 2, stride: 1}
          - {name: h, size: 2, stride: 2--2}
      - {name: hv_r, size: 2, stride: 2}
)";

// A C++ program printing kContractName, a NUL, then per field its element count and the offset of
// every element in logical order. `functions` names each field's generated functions' suffix.
std::string driver_for(const Contract& contract,
                       const std::vector<std::pair<std::string, std::string>>& functions) {
  std::ostringstream code;
  code << "#include <cstdio>\n#include \"generated.h\"\n"
       << "namespace c = layoutcheck::contracts::" << contract_identifier(contract.name) << ";\n"
       << "int main() {\n  const c::Symbols<long long> s{};\n"
       << "  std::fputs(c::kContractName, stdout);\n  std::fputc('\\0', stdout);\n";
  for (const auto& [field_name, suffix] : functions) {
    const Field& field = *contract.find_field(field_name);
    code << "  std::printf(\"%lld\\n\", c::elements_" << suffix << "(s));\n";
    std::string arguments;
    for (std::size_t d = 0; d < field.dims.size(); ++d) {
      code << "  for (long long i" << d << " = 0; i" << d << " < " << field.dims[d].size()
           << "; ++i" << d << ")\n";
      arguments += ", i" + std::to_string(d);
    }
    code << "  std::printf(\"%lld\\n\", c::offset_" << suffix << "(s" << arguments << "));\n";
  }
  code << "}\n";
  return code.str();
}

// The driver's numbers after its NUL: per field its element count, then every element's offset
// in logical order, each as the contract says.
void expect_offsets(const std::string& printed, const Contract& contract,
                    const std::vector<std::string>& fields) {
  std::istringstream numbers(printed);
  for (const std::string& name : fields) {
    SCOPED_TRACE(name);
    const Field& field = *contract.find_field(name);
    long long value = -1;
    ASSERT_TRUE(numbers >> value);
    EXPECT_EQ(value, field.elements());
    for (std::int64_t linear = 0; linear < field.elements(); ++linear) {
      ASSERT_TRUE(numbers >> value);
      EXPECT_EQ(value, field.offset_of_linear(linear)) << "element " << linear;
    }
  }
}

bool has_host_compiler() {
  const char* cxx = std::getenv("CXX");
  const std::string probe = std::string("command -v '") +
                            (cxx != nullptr && *cxx != '\0' ? cxx : "c++") + "' >/dev/null 2>&1";
  return std::system(probe.c_str()) == 0;
}

// Compiles header + driver with the host compiler ($CXX, else c++) and runs the program.
// @post its standard output; nullopt after a failure naming the compiler's messages.
std::optional<std::string> compile_and_run(const std::string& header, const std::string& driver) {
  const layoutcheck::testing::ScratchFolder folder("layoutcheck_codegen");
  const std::filesystem::path& dir = folder.path();
  std::ofstream(dir / "generated.h", std::ios::binary) << header;
  std::ofstream(dir / "driver.cpp", std::ios::binary) << driver;
  const char* cxx = std::getenv("CXX");
  const std::string compiler = cxx != nullptr && *cxx != '\0' ? cxx : "c++";
  const std::string command = compiler + " -std=c++17 -Wall -Wextra -Werror -o '" +
                              (dir / "driver").string() + "' '" + (dir / "driver.cpp").string() +
                              "' >'" + (dir / "compile.log").string() + "' 2>&1";
  if (std::system(command.c_str()) != 0) {
    ADD_FAILURE() << "the generated header does not compile:\n"
                  << read_text_file((dir / "compile.log").string()).value_or("") << "\n"
                  << header;
    return std::nullopt;
  }
  const std::string run = "'" + (dir / "driver").string() + "' >'" + (dir / "out").string() + "'";
  if (std::system(run.c_str()) != 0) {
    ADD_FAILURE() << "the generated program failed";
    return std::nullopt;
  }
  return read_text_file((dir / "out").string());
}

TEST(OffsetHeader, CollidingNamesAndHostileTextCompileAndKeepTheirMeaning) {
  if (!has_host_compiler()) GTEST_SKIP() << "no host C++ compiler ($CXX or c++)";

  const Contract contract = load_contract_text(kCollisions, "collisions.yaml");
  const std::string header =
      generate_offset_header(contract, {"tests/collisions.yaml\n#error label \\"});
  // One mapping everywhere: declarations and the pasted expressions use the renamed names.
  EXPECT_THAT(header, HasSubstr("Index Index_ = 2;"));
  EXPECT_THAT(header, HasSubstr("Index int__ = 1;"));
  EXPECT_THAT(header, HasSubstr("const Index G = s_ * int_ / int_;"));
  EXPECT_THAT(header, HasSubstr("(10) + "));

  const std::optional<std::string> output = compile_and_run(
      header, driver_for(contract, {{"Q", "Q"}, {"class", "class_"}, {"hv", "hv"}}));
  ASSERT_TRUE(output);
  const std::size_t nul = output->find('\0');
  ASSERT_NE(nul, std::string::npos);
  EXPECT_EQ(output->substr(0, nul), contract.name);  // the name byte for byte
  expect_offsets(output->substr(nul + 1), contract, {"Q", "class", "hv"});
}

// Names the standard headers define as macros: with <cstdio>, <cassert>, <cerrno> and <climits>
// included first, a field NULL, a symbol EOF and a dim assert still compile (renamed NULL_, EOF_,
// assert_), and read what the contract says.
TEST(OffsetHeader, StandardMacroNamesCompile) {
  if (!has_host_compiler()) GTEST_SKIP() << "no host C++ compiler ($CXX or c++)";
  const Contract contract = load_contract_text(R"(layoutcheck: 1
name: macros
buffer: m
dtype: bf16
symbols: {EOF: 3, errno: 2, INT_MAX: 4}
fields:
  - name: "NULL"
    dims:
      - {name: assert, size: EOF, stride: errno}
      - {name: stdin, size: errno, stride: 1}
  - name: EOF
    offset: 6
    dims: [{name: offsetof, size: INT_MAX, stride: 1}]
)",
                                               "macros.yaml");
  const std::string header = generate_offset_header(contract, {"macros.yaml"});
  EXPECT_THAT(header, HasSubstr("Index EOF_ = 3;"));
  const std::string driver = "#include <cassert>\n#include <cerrno>\n#include <climits>\n" +
                             driver_for(contract, {{"NULL", "NULL_"}, {"EOF", "EOF_"}});
  const std::optional<std::string> output = compile_and_run(header, driver);
  ASSERT_TRUE(output);
  expect_offsets(output->substr(output->find('\0') + 1), contract, {"NULL", "EOF"});
}

// Two contract names that meet in one namespace ("a.b" and "a_b"): including both headers stops
// with the generator's message, not a wall of redefinitions.
TEST(OffsetHeader, ContractsSharingANamespaceSaySo) {
  const auto header_for = [](const std::string& name) {
    return generate_offset_header(
        load_contract_text("layoutcheck: 1\nname: " + name +
                               "\nbuffer: b\ndtype: bf16\nfields:\n  - name: F\n    dims: "
                               "[{name: i, size: 2, stride: 1}]\n",
                           name + ".yaml"),
        {name + ".yaml"});
  };
  const std::string dotted = header_for("a.b"), underscored = header_for("a_b");
  EXPECT_THAT(dotted, HasSubstr("#ifdef LC_CONTRACT_NAMESPACE_a_b"));
  EXPECT_THAT(underscored, HasSubstr("#define LC_CONTRACT_NAMESPACE_a_b"));
  // The preprocessor alone shows it: the second header meets the first one's definition.
  const std::size_t define = dotted.find("#define LC_CONTRACT_NAMESPACE_a_b");
  const std::size_t check = underscored.find("#ifdef LC_CONTRACT_NAMESPACE_a_b");
  ASSERT_NE(define, std::string::npos);
  ASSERT_NE(check, std::string::npos);
  EXPECT_THAT(underscored, HasSubstr("two contracts share the namespace"));
}

}  // namespace
}  // namespace layoutcheck::codegen

namespace layoutcheck::codegen {
namespace {

// A padded, shifted grid (contracts/pangu/windows.shifted.yaml at a small grid that pads every
// axis): the generated offsets roll and split the padded position as the contract does, and
// the element count is the real tokens'.
TEST(OffsetHeader, PaddedShiftedAxesCompileAndKeepTheirMeaning) {
  if (!has_host_compiler()) GTEST_SKIP() << "no host C++ compiler ($CXX or c++)";
  LoadOptions options;
  options.overrides = {{"Z", 3}, {"LAT", 5}, {"LON", 7}, {"C", 2}};
  const Contract contract = load_contract(
      std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/windows.shifted.yaml", options);
  const std::string header = generate_offset_header(contract, {"windows.shifted.yaml"});
  EXPECT_THAT(header, HasSubstr("lat_position"));
  const std::optional<std::string> output =
      compile_and_run(header, driver_for(contract, {{"x", "x"}}));
  ASSERT_TRUE(output);
  expect_offsets(output->substr(output->find('\0') + 1), contract, {"x"});
}

}  // namespace
}  // namespace layoutcheck::codegen
