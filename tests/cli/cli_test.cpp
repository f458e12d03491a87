// The command line as a user meets it: the built binary (LAYOUTCHECK_CLI) run as a child process,
// its exit code and its output checked. Exit codes are part of the interface: 0 clean, 1 findings,
// 2 usage or input error.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/json/json.h"
#include "scratch_folder.h"

namespace {

using layoutcheck::testing::CliResult;
using layoutcheck::testing::contains;
using layoutcheck::testing::run_cli;
using layoutcheck::testing::shell_quoted;

std::string contract(const std::string& relative) {
  return std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/" + relative;
}

const std::string kFlatQkvz = contract("gdn/qwen3_5.qkvz.yaml");
const std::string kInterleavedQkvz = contract("gdn/qwen3_next.qkvz.yaml");
const std::string kFlatBa = contract("gdn/qwen3_5.ba.yaml");
const std::string kInterleavedBa = contract("gdn/qwen3_next.ba.yaml");
const std::string kMissing = "/nonexistent/layoutcheck/missing.yaml";

TEST(Cli, VersionPrintsTheProjectVersion) {
  const CliResult result = run_cli({"--version"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, LAYOUTCHECK_VERSION)) << result.output;
}

TEST(Cli, TopLevelHelpListsEverySubcommand) {
  const CliResult result = run_cli({"--help"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const char* name :
       {"lint", "diff", "explain", "render", "probe", "run", "bench", "codegen", "gate"})
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
                                         "bench", "codegen", "gate"));

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
  const CliResult before = run_cli({"--bogus"});  // before any subcommand
  EXPECT_EQ(before.exit_code, 2) << before.output;
  EXPECT_TRUE(contains(before.output, "unknown option '--bogus'")) << before.output;
}

// With --json an input error is also JSON on standard output, {"errors": [...]}, whichever
// command meets it: a tool reading the output never gets nothing, or plain text.
struct JsonInputError {
  std::vector<std::string> args;
  std::string message;  // a part of the first error's message
};

class JsonInputErrors : public testing::TestWithParam<JsonInputError> {};

TEST_P(JsonInputErrors, ArePrintedAsJsonOnStandardOutput) {
  std::string command = shell_quoted(LAYOUTCHECK_CLI);
  for (const std::string& arg : GetParam().args) command += " " + shell_quoted(arg);
  const CliResult result = layoutcheck::testing::run_shell(command + " 2>/dev/null");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  const layoutcheck::Json errors = layoutcheck::Json::parse(result.output)["errors"];
  ASSERT_EQ(errors.size(), 1u) << result.output;
  EXPECT_TRUE(contains(errors[0]["message"].as_string(), GetParam().message)) << result.output;
}

INSTANTIATE_TEST_SUITE_P(
    EachJsonCommand, JsonInputErrors,
    testing::Values(
        JsonInputError{{"profile", kMissing, "--json"}, "missing.yaml"},
        JsonInputError{{"profile", kFlatQkvz, "--json"}, "no operator table here"},
        JsonInputError{{"gate", "--case", "no-such-case", "--json"}, "has no gates"},
        JsonInputError{{"gate", "--case", "pangu", "--only", "no such", "--json"},
                       "no check's subject contains 'no such'"},
        JsonInputError{{"gate", "--case", "pangu", "--call", "operator=layernorm", "--call",
                        "shape=1,8,191", "--json"},
                       "191 channels"},
        JsonInputError{{"probe", "--producer", kMissing, "--consumer", kFlatQkvz, "--json"},
                       "missing.yaml"},
        JsonInputError{{"run", kMissing, "--json"}, "missing.yaml"}));

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

TEST(Cli, ASizeSetTwiceIsAUsageError) {
  const CliResult result = run_cli({"lint", kFlatQkvz, "--set", "H=2", "--set", "H=4"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(contains(result.output, "--set H is given twice (2 and 4)")) << result.output;
}

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

// A full disk or a closed pipe must not pass for a clean run: what a command prints is its result.
class StdoutWriteError : public testing::TestWithParam<std::vector<std::string>> {};

TEST_P(StdoutWriteError, IsAnInputErrorNamingStandardOutput) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  const CliResult result = run_cli(GetParam(), "/dev/full");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(contains(result.output, "layoutcheck: cannot write to standard output: "))
      << result.output;
}

INSTANTIATE_TEST_SUITE_P(
    EachPrintingCommand, StdoutWriteError,
    testing::Values(std::vector<std::string>{"lint", kFlatQkvz},
                    std::vector<std::string>{"diff", kFlatQkvz, kInterleavedQkvz},
                    std::vector<std::string>{"explain", kFlatQkvz, "--offset", "0"},
                    std::vector<std::string>{"render", kFlatBa, "-o", "-"},
                    std::vector<std::string>{"codegen", kFlatBa},
                    std::vector<std::string>{"--help"}));

TEST(Cli, CodegenEmptyOutputIsAUsageErrorLikeRender) {
  for (const char* command : {"codegen", "render"}) {
    const CliResult result = run_cli({command, kFlatBa, "-o", ""});
    EXPECT_EQ(result.exit_code, 2) << command << "\n" << result.output;
  }
  const CliResult codegen = run_cli({"codegen", kFlatBa, "-o", ""});
  EXPECT_TRUE(contains(codegen.output, "-o needs a file name")) << codegen.output;
  EXPECT_FALSE(contains(codegen.output, "#pragma once")) << codegen.output;
}

TEST(Cli, CodegenDashWritesStandardOutput) {
  const CliResult result = run_cli({"codegen", kFlatBa, "-o", "-"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result.output, "#pragma once")) << result.output;
}

// The element-cap error says "raise the cap with --max-elements": every command that loads a
// contract and can print it takes that option, with lint's meaning and validation.
class MaxElements : public testing::TestWithParam<std::vector<std::string>> {};

TEST_P(MaxElements, CapsTheContractAndIsValidated) {
  std::vector<std::string> args = GetParam();
  args.insert(args.end(), {"--max-elements", "50"});
  const CliResult capped = run_cli(args);  // ba has 96 elements per row
  EXPECT_NE(capped.exit_code, 0) << capped.output;
  EXPECT_TRUE(contains(capped.output, "element-cap")) << capped.output;
  EXPECT_TRUE(contains(capped.output, "--max-elements")) << capped.output;

  args.back() = "100000";
  const CliResult raised = run_cli(args);
  EXPECT_FALSE(contains(raised.output, "element-cap")) << raised.output;
  EXPECT_FALSE(contains(raised.output, "--max-elements")) << raised.output;

  args.back() = "0";
  const CliResult zero = run_cli(args);
  EXPECT_EQ(zero.exit_code, 2) << zero.output;
  EXPECT_TRUE(contains(zero.output, "--max-elements")) << zero.output;

  // Past what lint's table can number, a raised cap would only let a walk run for minutes.
  args.back() = "4294967294";
  const CliResult past = run_cli(args);
  EXPECT_EQ(past.exit_code, 2) << past.output;
  EXPECT_TRUE(contains(past.output, "an integer from 1 to 4294967293")) << past.output;
}

INSTANTIATE_TEST_SUITE_P(EveryContractCommand, MaxElements,
                         testing::Values(std::vector<std::string>{"lint", kFlatBa},
                                         std::vector<std::string>{"diff", kFlatBa, kInterleavedBa},
                                         std::vector<std::string>{"explain", kFlatBa, "--offset",
                                                                  "0"},
                                         std::vector<std::string>{"render", kFlatBa, "-o", "-"},
                                         std::vector<std::string>{"codegen", kFlatBa},
                                         std::vector<std::string>{"probe", "--producer", kFlatBa,
                                                                  "--consumer", kInterleavedBa}));

// A file that cannot be written is exit 2 with the system's reason, the same for every command.
TEST(Cli, UnwritableOutputSaysWhy) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"render", kFlatBa, "-o", "/nonexistent/layoutcheck/x.svg"},
        std::vector<std::string>{"codegen", kFlatBa, "-o", "/nonexistent/layoutcheck/x.h"},
        // Before the work: a missing file to diff is not even read.
        std::vector<std::string>{"diff", kMissing, kFlatBa, "--picture",
                                 "/nonexistent/layoutcheck/x.svg"},
        std::vector<std::string>{"render", kMissing, "-o", "/nonexistent/layoutcheck/x.svg"}}) {
    const CliResult result = run_cli(args);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_TRUE(contains(result.output, "error[output]: cannot write /nonexistent/layoutcheck/x."))
        << result.output;
    EXPECT_TRUE(contains(result.output, "No such file or directory")) << result.output;
  }
}

// A bad number names the option, what it expects and what it got: no double-printed range, and
// NaN or an out-of-range seed is not taken silently.
TEST(Cli, NumericOptionsSayWhatTheyExpect) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"lint", kFlatBa, "--max-elements", "0"},
       "--max-elements: expected an integer from 1 to 4294967293, got '0'"},
      {{"lint", kFlatBa, "--max-elements", "abc"},
       "--max-elements: expected an integer from 1 to 4294967293, got 'abc'"},
      {{"explain", kFlatBa, "--offset", ""}, "--offset: expected a whole number, got ''"},
      {{"explain", kFlatBa, "--offset", "99999999999999999999"},
       "--offset: expected a whole number, got '99999999999999999999'"},
      {{"diff", kFlatBa, kFlatBa, "--max-runs", "-1"},
       "--max-runs: expected an integer of at least 0, got '-1'"},
      {{"probe", "--producer", kFlatBa, "--consumer", kFlatBa, "--tolerance", "nan"},
       "--tolerance: expected a finite number above 0, got 'nan'"},
      {{"probe", "--producer", kFlatBa, "--consumer", kFlatBa, "--seed", "-1"},
       "--seed: expected an integer from 0 to 18446744073709551615, got '-1'"},
      {{"probe", "--producer", kFlatBa, "--consumer", kFlatBa, "--seed", "18446744073709551616"},
       "--seed: expected an integer from 0 to 18446744073709551615"},
      {{"run", "probes/gdn/correct_native.yaml", "--seed", "-1"},
       "--seed: expected an integer from 0 to 18446744073709551615, got '-1'"},
      {{"probe", "--producer", kFlatBa, "--consumer", kFlatBa, "--max-batch", "1.5"},
       "--max-batch: expected an integer of at least 1, got '1.5'"},
  };
  for (const Case& bad : cases) {
    const CliResult result = run_cli(bad.args);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_TRUE(contains(result.output, bad.message)) << result.output;
    EXPECT_FALSE(contains(result.output, "0.000000")) << result.output;
  }
  const CliResult width = run_cli({"render", kFlatBa, "--width", "400.5", "-o", "-"});
  EXPECT_EQ(width.exit_code, 0) << width.output;  // a width in range, not a whole number
}

}  // namespace

namespace layoutcheck {
namespace {

const std::string kRope = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/rope/";

TEST(CasesCommand, ListsEveryShippedCase) {
  const CliResult result = run_cli({"cases"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.output.find("gdn: "), std::string::npos);
  EXPECT_NE(result.output.find("rope: "), std::string::npos);
  EXPECT_NE(result.output.find("rope_apply_v1"), std::string::npos);
  const CliResult json = run_cli({"cases", "--json"});
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_NE(json.output.find("\"name\": \"rope\""), std::string::npos) << json.output;
}

TEST(ProbeCase, RopeMisreadIsAFindingAndAgreesWithTheDiff) {
  const CliResult result =
      run_cli({"probe", "--case", "rope", "--producer", kRope + "half_split.x.yaml", "--consumer",
               kRope + "interleaved.x.yaml", "--json"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("\"agrees_with_diff\": true"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("\"misread\": 496"), std::string::npos);
  const CliResult clean =
      run_cli({"probe", "--case", "rope", "--producer", kRope + "half_split.x.yaml", "--consumer",
               kRope + "half_split.x.yaml"});
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  EXPECT_NE(clean.output.find("verdict: clean"), std::string::npos);
}

// The buffers not probed are the case's own on both sides unless given: --with alone claims the
// kernel writes shifted windows where the model reads plain ones; --producer-with says the model's
// block is shifted too, and then only a kernel that shifts wrongly misreads.
TEST(ProbeCase, TheModelsOtherBuffersAreGivenWithProducerWith) {
  const std::string pangu = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/";
  const std::vector<std::string> base = {
      "probe", "--case", "pangu-window-gather", "--producer", pangu + "grid.yaml", "--consumer",
      pangu + "grid.yaml", "--with", pangu + "windows.shifted.yaml", "--set", "Z=2", "--set",
      "LAT=7", "--set", "LON=13", "--set", "C=2"};
  const CliResult claim_only = run_cli(base);
  EXPECT_EQ(claim_only.exit_code, 1) << claim_only.output;
  EXPECT_TRUE(contains(claim_only.output,
                       "'windows' is written as pangu.windows.shifted, the "
                       "model reads it as pangu.windows"))
      << claim_only.output;

  std::vector<std::string> both = base;
  both.insert(both.end(), {"--producer-with", pangu + "windows.shifted.yaml"});
  const CliResult clean = run_cli(both);
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  EXPECT_TRUE(contains(clean.output, "verdict: clean")) << clean.output;
  // The verdict says what the buffers not probed were judged on.
  EXPECT_TRUE(contains(clean.output, "buffers not probed (model / kernel): windows "
                                     "pangu.windows.shifted / pangu.windows.shifted"))
      << clean.output;
  EXPECT_TRUE(contains(claim_only.output, "buffers not probed (model / kernel): windows "
                                          "pangu.windows / pangu.windows.shifted"))
      << claim_only.output;

  std::vector<std::string> mutant = both;
  mutant.insert(mutant.end(), {"--backend", "cpu:mutant:shift_on_wrong_axes"});
  const CliResult caught = run_cli(mutant);
  EXPECT_EQ(caught.exit_code, 1) << caught.output;
  EXPECT_TRUE(contains(caught.output, "layout misread")) << caught.output;
  EXPECT_FALSE(contains(caught.output, "is written as")) << caught.output;
}

// An input not probed that the kernel claims in another layout than the model's: the probes of
// the probed buffer feed it as claimed, so the verdict names it from the contracts.
TEST(ProbeCase, AnInputNotProbedInAnotherLayoutIsAFinding) {
  const std::string qkvz = contract("gdn/qwen3_5.qkvz.yaml");
  const std::vector<std::string> base = {
      "probe", "--case", "gdn", "--decoder", "dependence", "--producer", qkvz, "--consumer",
      qkvz, "--set", "H=2", "--set", "HV=4", "--set", "K=8", "--set", "V=8"};
  std::vector<std::string> claimed = base;
  claimed.insert(claimed.end(), {"--with", contract("gdn/qwen3_next.ba.yaml")});
  const CliResult differs = run_cli(claimed);
  EXPECT_EQ(differs.exit_code, 1) << differs.output;
  EXPECT_TRUE(contains(differs.output,
                       "input-layout: 'ba' is read as qwen3_next.ba, the model "
                       "lays it out as qwen3_5.ba: 4 of 8 elements are read "
                       "where the model put another"))
      << differs.output;
  std::vector<std::string> both = claimed;
  both.insert(both.end(), {"--producer-with", contract("gdn/qwen3_next.ba.yaml")});
  const CliResult agrees = run_cli(both);
  EXPECT_FALSE(contains(agrees.output, "input-layout")) << agrees.output;
}

TEST(ProbeCase, TwoContractsOfOneBufferOrProducerWithOnTheGdnDecoderAreInputErrors) {
  const std::string pangu = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/";
  const CliResult twice =
      run_cli({"probe", "--case", "pangu-window-gather", "--producer", pangu + "grid.yaml",
               "--consumer", pangu + "grid.yaml", "--producer-with", pangu + "windows.yaml",
               "--producer-with", pangu + "windows.shifted.yaml", "--set", "C=2"});
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_TRUE(contains(twice.output, "a second contract of buffer 'windows'")) << twice.output;
  const CliResult probed =
      run_cli({"probe", "--case", "pangu-window-gather", "--producer", pangu + "grid.yaml",
               "--consumer", pangu + "grid.yaml", "--with", pangu + "grid.yaml", "--set", "C=2"});
  EXPECT_EQ(probed.exit_code, 2) << probed.output;
  EXPECT_TRUE(contains(probed.output, "describes 'x', the probed buffer")) << probed.output;
  const CliResult gdn = run_cli({"probe", "--producer", contract("gdn/qwen3_5.qkvz.yaml"),
                                 "--consumer", contract("gdn/qwen3_5.qkvz.yaml"), "--producer-with",
                                 contract("gdn/qwen3_5.ba.yaml")});
  EXPECT_EQ(gdn.exit_code, 2) << gdn.output;
  EXPECT_TRUE(contains(gdn.output, "--producer-with is for the generic decoders")) << gdn.output;
  // A contract of a buffer the case does not have, probed or not, names the case and the buffer.
  const std::string foreign = contract("gdn/qwen3_5.qkvz.yaml");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--producer", foreign, "--consumer", foreign},
        std::vector<std::string>{"--producer", pangu + "grid.yaml", "--consumer",
                                 pangu + "grid.yaml", "--producer-with", foreign}}) {
    std::vector<std::string> command = {"probe", "--case", "pangu-window-gather"};
    command.insert(command.end(), args.begin(), args.end());
    const CliResult result = run_cli(command);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_TRUE(contains(result.output, "case 'pangu-window-gather' has no buffer 'qkvz'"))
        << result.output;
  }
}

// The rows a run holds are capped as a contract's elements are: the real grid at 64 rows would
// be 1.7 billion elements a buffer.
TEST(ProbeCase, RowsPastTheElementCapAreAnInputError) {
  const std::string grid = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/grid.yaml";
  const CliResult result = run_cli({"probe", "--case", "pangu-window-gather", "--producer", grid,
                                    "--consumer", grid, "--rows", "64"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(contains(result.output, "at 64 rows of 26542080 elements is more than the cap of "
                                      "67108864 elements"))
      << result.output;
}

TEST(ProbeCase, BadCaseDecoderOrBackendIsAnInputError) {
  const std::vector<std::string> contracts = {"--producer", kRope + "half_split.x.yaml",
                                              "--consumer", kRope + "half_split.x.yaml"};
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--case", "bogus"},
        std::vector<std::string>{"--case", "rope", "--decoder", "data-movement"},
        std::vector<std::string>{"--case", "rope", "--decoder", "gdn"},
        std::vector<std::string>{"--case", "rope", "--backend", "cpu:mutant:nope"},
        std::vector<std::string>{"--case", "rope", "--buffer", "out"}}) {
    std::vector<std::string> args = {"probe"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), contracts.begin(), contracts.end());
    const CliResult result = run_cli(args);
    EXPECT_EQ(result.exit_code, 2) << extra[1] << ": " << result.output;
    EXPECT_NE(result.output.find("error"), std::string::npos);
  }
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// A version-1 (GDN) manifest's launch is checked before any GPU is looked for: a grid that
// divides by zero is an input error naming line and column, on a CPU build too.
TEST(Cli, AVersionOneLaunchThatDividesByZeroIsAnInputErrorOnAnyBuild) {
  const std::string probes = std::string(LAYOUTCHECK_TEST_DATA) + "/../probes/gdn/";
  const std::optional<std::string> shipped = read_text_file(probes + "correct_native.yaml");
  ASSERT_TRUE(shipped);
  std::string text = *shipped;
  const std::size_t grid = text.find("grid: [HV, batch]");
  ASSERT_NE(grid, std::string::npos);
  text.replace(grid, 17, "grid: [HV / (K - K), batch]");
  for (std::size_t at; (at = text.find("../../contracts")) != std::string::npos;)
    text.replace(at, 15, LAYOUTCHECK_CONTRACTS_DIR);
  const testing::ScratchFolder folder("lc_divides_by_zero");
  const CliResult result = run_cli({"run", folder.write("manifest.yaml", text)});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(":9:15: error[divisibility]"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace layoutcheck

namespace {

// A probe of the wrong buffer says which of the case's buffers each contract describes, and
// which buffers a probe can vary.
TEST(Cli, AProbeOfTheWrongBufferNamesTheCaseBuffers) {
  const std::string grid = contract("pangu/grid.yaml"), windows = contract("pangu/windows.yaml");
  const CliResult mixed = run_cli(
      {"probe", "--case", "pangu-window-gather", "--producer", grid, "--consumer", windows});
  EXPECT_EQ(mixed.exit_code, 2) << mixed.output;
  EXPECT_TRUE(contains(mixed.output,
                       "--producer and --consumer must describe buffer 'x' of case "
                       "'pangu-window-gather' (they describe its 'x' and 'windows')"))
      << mixed.output;
  const CliResult output = run_cli({"probe", "--case", "pangu-window-gather", "--producer",
                                    windows, "--consumer", contract("pangu/windows.shifted.yaml")});
  EXPECT_EQ(output.exit_code, 2) << output.output;
  EXPECT_TRUE(contains(output.output,
                       "case 'pangu-window-gather' writes buffer 'windows' but does not read it"))
      << output.output;
  EXPECT_TRUE(contains(output.output, "probe a buffer it reads (x, map)")) << output.output;
}

}  // namespace
