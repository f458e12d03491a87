// A recorded report is checked against its case's bench declaration (Case::bench), looked up in
// the case registry: every test of this suite reads reports, so the built-in cases are registered
// once before any runs, as layoutcheck's main does.
#include <gtest/gtest.h>

#include "cases/builtin_cases.h"
#include "layoutcheck/cases/registry.h"

namespace layoutcheck {
namespace {

class BuiltinCases : public ::testing::Environment {
 public:
  void SetUp() override { register_builtin_cases(); }
};

const ::testing::Environment* const kBuiltinCases =
    ::testing::AddGlobalTestEnvironment(new BuiltinCases);

TEST(BuiltinCasesEnvironment, GdnDeclaresItsBench) {
  const auto gdn = CaseRegistry::instance().find_bench("gdn-decode");
  ASSERT_NE(gdn, nullptr);
  EXPECT_EQ(gdn->name(), "gdn");
  ASSERT_TRUE(gdn->bench());
  EXPECT_TRUE(gdn->bench()->paths.back().negative_control);
  EXPECT_EQ(CaseRegistry::instance().find_bench("rope"), nullptr);  // no bench
}

}  // namespace
}  // namespace layoutcheck
