// RowMap: the inverse of a contract, offset -> global element id.
#include "layoutcheck/contract/row_map.h"

#include <gtest/gtest.h>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

TEST(RowMap, InvertsEveryOffset) {
  const Contract c =
      load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/qwen3_next.qkvz.yaml",
                    {{{"H", 3}, {"HV", 9}, {"K", 5}, {"V", 7}}});
  const RowMap map = RowMap::build(c);
  ASSERT_EQ(map.size(), c.row_size);
  for (std::int64_t id = 0; id < c.elements(); ++id)
    EXPECT_EQ(map.at(c.offset_of(c.element_from_global(id))), static_cast<std::uint32_t>(id));
}

TEST(RowMap, MarksPaddingAndDeclaredAliasingKeepsTheFirst) {
  const Contract c = load_contract_text(
      "layoutcheck: 1\nname: t\nbuffer: b\ndtype: fp32\nrow_size: 8\n"
      "fields:\n"
      "  - {name: A, dims: [{name: i, size: 4, stride: 1}]}\n"
      "  - {name: B, may_alias: [A], offset: 2, dims: [{name: i, size: 4, stride: 1}]}\n"
      "padding:\n"
      "  - {name: pad, offset: 6, size: 2}\n",
      "t.yaml");
  const RowMap map = RowMap::build(c);
  const std::vector<std::uint32_t> expected = {
      0, 1, 2, 3, 4 + 2, 4 + 3, RowMap::kPadding, RowMap::kPadding};
  EXPECT_EQ(map.owners(), expected);
}

}  // namespace
}  // namespace layoutcheck
