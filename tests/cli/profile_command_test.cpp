// `layoutcheck profile` as a user meets it: the seed's operator table and a chrome trace are ranked
// (exit 0) in Markdown or JSON, --copy-bandwidth fills the share column, --top cuts the list, and a
// malformed table is exit 2 naming the file and line.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli_runner.h"
#include "layoutcheck/json/json.h"

namespace {

using layoutcheck::Json;
using layoutcheck::testing::CliResult;
using layoutcheck::testing::contains;
using layoutcheck::testing::run_cli;

std::string fixture(const std::string& name) {
  return std::string(LAYOUTCHECK_TEST_DATA) + "/profile/fixtures/" + name;
}

TEST(ProfileCommand, TheSeedsTableIsRankedInMarkdown) {
  const CliResult result = run_cli({"profile", fixture("pangu_bw1000_operator_table.txt")});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "## Candidates, by total device time")) << result.output;
  EXPECT_TRUE(contains(result.output, "| 1 | aten::addmm |")) << result.output;
  EXPECT_TRUE(contains(result.output, "## Copies, allocations and synchronisations"));
  EXPECT_TRUE(contains(result.output, "needs --copy-bandwidth")) << result.output;
}

TEST(ProfileCommand, JsonWithTheCopyBandwidthAndACutList) {
  const CliResult result = run_cli(
      {"profile", fixture("pangu_trace.json"), "--json", "--copy-bandwidth", "4190", "--top", "2"},
      "");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const Json report = Json::parse(result.output);
  EXPECT_EQ(report["source"].as_string(), "chrome trace");
  EXPECT_DOUBLE_EQ(report["copy_bandwidth_gbps"].as_double(), 4190.0);
  ASSERT_EQ(report["candidates"].size(), 2u);  // of 3
  EXPECT_EQ(report["candidates_total"].as_int(), 3);
  const Json& layer_norm = report["candidates"][0];
  EXPECT_EQ(layer_norm["name"].as_string(), "aten::native_layer_norm");
  // 100.6 MB in 170 µs of a 4190 GB/s copy bandwidth: 14 %.
  EXPECT_NEAR(layer_norm["copy_bandwidth_pct"].as_double(), 100638720.0 / 170e-6 / 4190e9 * 100,
              0.01);
}

TEST(ProfileCommand, AMalformedTableIsAnErrorWithItsLine) {
  const std::string path = ::testing::TempDir() + "profile_malformed.txt";
  {
    std::ifstream seed(fixture("pangu_bw1000_operator_table.txt"));
    std::ofstream out(path);
    std::string line;
    for (int n = 1; std::getline(seed, line); ++n)
      out << (n == 11 ? "                 aten::addmm      35.2xxms      314.680us           112"
                      : line)
          << "\n";
  }
  const CliResult result = run_cli({"profile", path});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(contains(result.output, path + ":11:")) << result.output;
  EXPECT_TRUE(contains(result.output, "error[profile]")) << result.output;
  std::remove(path.c_str());
  const CliResult missing = run_cli({"profile", fixture("no-such-profile.txt")});
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_TRUE(contains(missing.output, "no-such-profile.txt")) << missing.output;
}

// "-" reads standard input, as lint, diff and render do: a profile piped from another tool.
TEST(ProfileCommand, StandardInputIsAProfileToo) {
  using layoutcheck::testing::run_shell;
  using layoutcheck::testing::shell_quoted;
  const std::string cli = shell_quoted(LAYOUTCHECK_CLI);
  const CliResult piped =
      run_shell(cli + " profile - < " + shell_quoted(fixture("pangu_trace.json")) + " 2>&1");
  EXPECT_EQ(piped.exit_code, 0) << piped.output;
  EXPECT_TRUE(contains(piped.output, "# Profile (chrome trace)")) << piped.output;
  const CliResult junk = run_shell("echo junk | " + cli + " profile - 2>&1");
  EXPECT_EQ(junk.exit_code, 2) << junk.output;
  EXPECT_TRUE(contains(junk.output, "<stdin>:1:1: error[profile]")) << junk.output;
}

}  // namespace
