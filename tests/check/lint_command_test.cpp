// `layoutcheck lint` as a user runs it: the output format (file:line:col: error[rule]: message,
// an indented fix line, one summary line per file), the JSON form and the exit codes.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {
namespace {

// `layoutcheck lint ARGS`, standard output alone.
testing::CliResult lint(const std::string& args) {
  return testing::run_shell(std::string(LAYOUTCHECK_CLI) + " lint " + args + " 2>/dev/null");
}

const std::string kContracts = LAYOUTCHECK_CONTRACTS_DIR;
const std::string kBad = std::string(LAYOUTCHECK_TEST_DATA) + "/bad_contracts/";

TEST(LintCommand, CleanContractsPrintASummaryEach) {
  const testing::CliResult run =
      lint(kContracts + "/gdn/qwen3_5.qkvz.yaml " + kContracts + "/gdn/qwen3_next.ba.yaml");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.output, kContracts + "/gdn/qwen3_5.qkvz.yaml: ok (16384 elements/row, 4 fields)\n" +
                         kContracts + "/gdn/qwen3_next.ba.yaml: ok (96 elements/row, 2 fields)\n");
}

TEST(LintCommand, FindingsPrintLocationRuleMessageAndFix) {
  const testing::CliResult run = lint(kBad + "overlap.yaml " + kContracts + "/gdn/gdn_out.yaml");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.output, kBad +
                         "overlap.yaml:14:5: error[overlap]: Q[3,0] and K[0,0] both map to offset "
                         "24 (8 offsets shared by Q and K)\n"
                         "    fix: fix the strides or offsets, or declare the aliasing with "
                         "'may_alias: [Q]' on K\n" +
                         kBad + "overlap.yaml: FAILED (1 error)\n" + kContracts +
                         "/gdn/gdn_out.yaml: ok (6144 elements/row, 1 field)\n");
}

TEST(LintCommand, JsonListsFilesAndDiagnostics) {
  const testing::CliResult run =
      lint("--json " + kBad + "gap.yaml " + kContracts + "/gdn/state.hvk.yaml --set HV=32");
  EXPECT_EQ(run.exit_code, 1);
  const Json json = Json::parse(run.output);
  ASSERT_EQ(json["files"].size(), 2u);
  const Json& gap = json["files"][0];
  EXPECT_FALSE(gap["ok"].as_bool());
  EXPECT_EQ(gap["elements"].as_int(), 512);
  ASSERT_EQ(gap["diagnostics"].size(), 1u);
  const Json& d = gap["diagnostics"][0];
  EXPECT_EQ(d["line"].as_int(), 10);
  EXPECT_EQ(d["column"].as_int(), 5);
  EXPECT_EQ(d["severity"].as_string(), "error");
  EXPECT_EQ(d["rule"].as_string(), "gap");
  EXPECT_EQ(d["message"].as_string(), "offsets 256-511 hold no element");
  EXPECT_FALSE(d["fix"].as_string().empty());
  const Json& state = json["files"][1];
  EXPECT_TRUE(state["ok"].as_bool());
  EXPECT_EQ(state["elements"].as_int(), 32 * 128 * 128);
  EXPECT_EQ(state["diagnostics"].size(), 0u);
}

TEST(LintCommand, ExitCodes) {
  EXPECT_EQ(lint(kBad + "malformed_yaml.yaml").exit_code, 1);  // a finding: lint's job
  EXPECT_EQ(lint(kContracts + "/gdn/qwen3_5.qkvz.yaml --set HV=50").exit_code, 1);
  EXPECT_EQ(lint("/nonexistent.yaml").exit_code, 2);
  EXPECT_EQ(lint(kContracts + "/gdn/qwen3_5.qkvz.yaml --set G=2").exit_code, 2);
  EXPECT_EQ(lint(kContracts + "/gdn/qwen3_5.qkvz.yaml --set NOPE=2").exit_code, 2);
  EXPECT_EQ(lint(kContracts + "/gdn/qwen3_5.qkvz.yaml --set HV").exit_code, 2);
  EXPECT_EQ(lint(kContracts + "/gdn/qwen3_5.qkvz.yaml --max-elements 0").exit_code, 2);
  // With several files, a --set only some declare (W: conv_state only) is fine ...
  EXPECT_EQ(lint(kContracts + "/gdn/conv_state.yaml " + kContracts + "/gdn/gdn_out.yaml --set W=2")
                .exit_code,
            0);
  // ... but one that none declares is a usage error.
  EXPECT_EQ(lint(kContracts + "/gdn/conv_state.yaml " + kContracts + "/gdn/gdn_out.yaml --set X=2")
                .exit_code,
            2);
}

}  // namespace
}  // namespace layoutcheck
