// The offset-header generator on contracts written in the test: symbolic expressions survive,
// split dims decompose fastest mode first, names that collide with C++ or symbols are renamed.
#include "layoutcheck/codegen/offset_header.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "layoutcheck/contract/parse.h"

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

}  // namespace
}  // namespace layoutcheck::codegen
