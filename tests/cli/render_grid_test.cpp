// `layoutcheck render` on a grid contract: one level drawn, --level chosen and checked.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"

namespace {

using layoutcheck::testing::CliResult;
using layoutcheck::testing::contains;
using layoutcheck::testing::run_cli;

const std::string kShifted = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/windows.shifted.yaml";
const std::string kBaContract = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/qwen3_5.ba.yaml";

TEST(RenderGrid, DrawsTheChosenLevel) {
  const CliResult first = run_cli({"render", kShifted, "-o", "-"});
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_TRUE(contains(first.output, "level z = 0 (of 8)")) << first.output.substr(0, 400);
  EXPECT_TRUE(contains(first.output, "16380 real tokens, 900 padding slots, 240 windows of 144"));
  const CliResult last = run_cli({"render", kShifted, "-o", "-", "--level", "7"});
  EXPECT_EQ(last.exit_code, 0) << last.output.substr(0, 400);
  EXPECT_TRUE(contains(last.output, "level z = 7 (of 8)"));
}

TEST(RenderGrid, BadLevelsAreErrors) {
  const CliResult high = run_cli({"render", kShifted, "-o", "-", "--level", "8"});
  EXPECT_EQ(high.exit_code, 2) << high.output;
  EXPECT_TRUE(contains(high.output, "level 8 is out of range")) << high.output;
  EXPECT_FALSE(contains(high.output, "<svg")) << high.output;

  const CliResult word = run_cli({"render", kShifted, "-o", "-", "--level", "top"});
  EXPECT_EQ(word.exit_code, 2) << word.output;
  EXPECT_TRUE(contains(word.output, "--level: expected a whole number, got 'top'")) << word.output;

  const CliResult row = run_cli({"render", kBaContract, "-o", "-", "--level", "0"});
  EXPECT_EQ(row.exit_code, 2) << row.output;
  EXPECT_TRUE(contains(row.output, "error[usage]: --level draws one level of a grid"))
      << row.output;

  const CliResult two = run_cli({"render", kShifted, kShifted, "-o", "-", "--level", "0"});
  EXPECT_EQ(two.exit_code, 2) << two.output;
  EXPECT_TRUE(contains(two.output, "not a comparison of two")) << two.output;
}

}  // namespace
