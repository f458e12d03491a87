// The command line as a user meets it: the built binary (LAYOUTCHECK_CLI) run as a child process,
// its exit code and its output checked. Exit codes are part of the interface: 0 clean, 1 findings,
// 2 usage or input error.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `layoutcheck ARGS...` (arguments single-quoted for the shell) and captures everything.
CliResult run_cli(const std::vector<std::string>& args) {
  std::string command = std::string("'") + LAYOUTCHECK_CLI + "'";
  for (const std::string& arg : args) {
    std::string quoted = "'";
    for (char c : arg) quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    command += " " + quoted + "'";
  }
  command += " 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t read = 0;
  while ((read = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), read);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

std::string contract(const std::string& relative) {
  return std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/" + relative;
}

const std::string kFlatQkvz = contract("gdn/qwen3_5.qkvz.yaml");
const std::string kInterleavedQkvz = contract("gdn/qwen3_next.qkvz.yaml");
const std::string kFlatBa = contract("gdn/qwen3_5.ba.yaml");
const std::string kMissing = "/nonexistent/layoutcheck/missing.yaml";

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(Cli, VersionPrintsTheProjectVersion) {
  const CliResult result = run_cli({"--version"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, LAYOUTCHECK_VERSION)) << result.output;
}

TEST(Cli, TopLevelHelpListsEverySubcommand) {
  const CliResult result = run_cli({"--help"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const char* name : {"lint", "diff", "explain", "render", "probe", "run", "bench", "codegen"})
    EXPECT_TRUE(contains(result.output, name)) << name << " missing from:\n" << result.output;
}

class SubcommandHelp : public testing::TestWithParam<const char*> {};

TEST_P(SubcommandHelp, ExitsZeroAndShowsUsage) {
  const CliResult result = run_cli({GetParam(), "--help"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "Usage")) << result.output;
  EXPECT_TRUE(contains(result.output, GetParam())) << result.output;
}

INSTANTIATE_TEST_SUITE_P(AllSubcommands, SubcommandHelp,
                         testing::Values("lint", "diff", "explain", "render", "probe", "run",
                                         "bench", "codegen"));

TEST(Cli, NoSubcommandIsAUsageError) {
  const CliResult result = run_cli({});
  EXPECT_EQ(result.exit_code, 2) << result.output;
}

TEST(Cli, UnknownSubcommandIsAUsageError) {
  const CliResult result = run_cli({"frobnicate"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(contains(result.output, "frobnicate")) << result.output;
}

TEST(Cli, UnknownOptionIsAUsageError) {
  const CliResult result = run_cli({"lint", "--no-such-option", kFlatQkvz});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(contains(result.output, "--no-such-option")) << result.output;
}

class MissingFile : public testing::TestWithParam<std::vector<std::string>> {};

TEST_P(MissingFile, IsAnInputErrorNamingThePath) {
  const CliResult result = run_cli(GetParam());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(contains(result.output, "missing.yaml")) << result.output;
}

INSTANTIATE_TEST_SUITE_P(
    EachFileCommand, MissingFile,
    testing::Values(std::vector<std::string>{"lint", kMissing},
                    std::vector<std::string>{"diff", kMissing, kInterleavedQkvz},
                    std::vector<std::string>{"diff", kFlatQkvz, kMissing},
                    std::vector<std::string>{"explain", kMissing, "--offset", "0"},
                    std::vector<std::string>{"render", kMissing, "-o",
                                             testing::TempDir() + "/missing.svg"}));

class BadSet : public testing::TestWithParam<std::string> {};

TEST_P(BadSet, IsAnInputError) {
  const CliResult result = run_cli({"lint", kFlatQkvz, "--set", GetParam()});
  EXPECT_EQ(result.exit_code, 2) << "--set " << GetParam() << "\n" << result.output;
  EXPECT_FALSE(result.output.empty());
}

INSTANTIATE_TEST_SUITE_P(Malformed, BadSet,
                         testing::Values("H",             // no value
                                         "H=",            // empty value
                                         "H=sixteen",     // not an integer
                                         "=16",           // no name
                                         "NOT_DEFINED=4"  // not a symbol of the contract
                                         ));

TEST(Cli, HvNotDivisibleByHIsALintFindingAndStopsADiff) {
  // lint's job is to report what is wrong with the contract as set: a finding, exit 1.
  const CliResult lint = run_cli({"lint", kFlatQkvz, "--set", "HV=50"});
  EXPECT_EQ(lint.exit_code, 1) << lint.output;
  EXPECT_TRUE(contains(lint.output, "divisib")) << lint.output;
  // diff cannot compare contracts that do not resolve: an input error, exit 2.
  const CliResult diff = run_cli({"diff", kFlatQkvz, kInterleavedQkvz, "--set", "HV=50"});
  EXPECT_EQ(diff.exit_code, 2) << diff.output;
  EXPECT_TRUE(contains(diff.output, "divisib")) << diff.output;
}

TEST(Cli, ValidSetIsAccepted) {
  const CliResult result = run_cli({"lint", kFlatQkvz, "--set", "HV=32"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST(Cli, ShippedContractLintsClean) {
  const CliResult result = run_cli({"lint", kFlatQkvz, kInterleavedQkvz, kFlatBa});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST(Cli, DiffExitCodesFollowTheFinding) {
  EXPECT_EQ(run_cli({"diff", kFlatQkvz, kFlatQkvz}).exit_code, 0);
  EXPECT_EQ(run_cli({"diff", kFlatQkvz, kInterleavedQkvz}).exit_code, 1);
  const CliResult incompatible = run_cli({"diff", kFlatQkvz, kFlatBa});
  EXPECT_EQ(incompatible.exit_code, 2) << incompatible.output;
}

TEST(Cli, ExplainUnknownElementIsAnInputError) {
  const CliResult result = run_cli({"explain", kFlatQkvz, "--element", "W[0,0]"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
}

}  // namespace
