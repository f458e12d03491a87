// scripts/review-contracts.sh, the CI step of a repository that keeps contracts, run on a scratch
// git repository: a branch that changes a contract's layout gets one Markdown comment with every
// contract linted and the changed one diffed against the base, picture linked; a branch that
// breaks a contract fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.h"
#include "layoutcheck/contract/read_file.h"
#include "scratch_folder.h"

namespace {

namespace fs = std::filesystem;
using layoutcheck::testing::CliResult;
using layoutcheck::testing::contains;
using layoutcheck::testing::run_shell;
using layoutcheck::testing::shell_quoted;

std::string shipped(const std::string& relative) {
  return layoutcheck::read_text_file(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/" + relative)
      .value_or("");
}

class ReviewContracts : public testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(repo_ / "contracts");
    write("contracts/ba.yaml", shipped("gdn/qwen3_5.ba.yaml"));
    write("contracts/cos.yaml", shipped("examples/rope_cos.half_split.yaml"));
    ASSERT_EQ(git("git init -q -b main && " + commit("base")).exit_code, 0);
  }

  void write(const std::string& relative, const std::string& text) {
    std::ofstream(repo_ / relative) << text;
  }
  std::string commit(const std::string& message) {
    return "git add -A && git -c user.name=t -c user.email=t@example.com commit -qm " + message;
  }
  CliResult git(const std::string& commands) {
    return run_shell("cd " + shell_quoted(repo_.path().string()) + " && (" + commands + ") 2>&1");
  }
  static std::string script() {
    return (fs::path(LAYOUTCHECK_TEST_DATA).parent_path() / "scripts" / "review-contracts.sh")
        .string();
  }
  CliResult review(const std::string& options = "--base main") {
    return git("bash " + shell_quoted(script()) + " --cli " + shell_quoted(LAYOUTCHECK_CLI) + " " +
               options);
  }

  layoutcheck::testing::ScratchFolder repo_{"layoutcheck-review"};
};

TEST_F(ReviewContracts, AChangedLayoutIsDiffedAgainstTheBase) {
  write("contracts/ba.yaml", shipped("gdn/qwen3_next.ba.yaml"));  // the same buffer, interleaved
  write("contracts/kv.yaml", shipped("examples/kv_cache.nhd.yaml"));
  ASSERT_EQ(git("git checkout -q -b change && " + commit("change")).exit_code, 0);
  const CliResult result = review("--base main --pictures pictures --out review.md");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  const std::string md = layoutcheck::read_text_file((repo_ / "review.md").string()).value_or("");
  EXPECT_TRUE(contains(md, "### layoutcheck lint: 3 contracts")) << md;
  EXPECT_TRUE(contains(md, "**OK: every contract passes lint**")) << md;
  EXPECT_TRUE(contains(md, "New contract `contracts/kv.yaml`")) << md;
  EXPECT_TRUE(contains(md, "Changed: `contracts/ba.yaml`")) << md;
  // The branch's layout (interleaved) is the producer, the base's (flat) the consumer.
  EXPECT_TRUE(contains(md, "### layoutcheck diff: `qwen3_next.ba` → `qwen3_5.ba`")) << md;
  EXPECT_TRUE(contains(md, "**Misread: 90 of 96 elements (93.8 %).**")) << md;
  EXPECT_TRUE(contains(md, "interleaved → group-major")) << md;
  EXPECT_FALSE(contains(md, "contracts/cos.yaml`, the branch"))
      << "an unchanged contract is not diffed";
  const bool png = run_shell("command -v rsvg-convert >/dev/null").exit_code == 0;
  const std::string picture = png ? "contracts_ba.png" : "contracts_ba.svg";
  EXPECT_TRUE(contains(md, "](" + picture + ")")) << md;
  EXPECT_TRUE(fs::exists(repo_ / "pictures" / "contracts_ba.svg"));
  EXPECT_EQ(fs::exists(repo_ / "pictures" / "contracts_ba.png"), png);
}

TEST_F(ReviewContracts, ABrokenContractFailsAndAnIncomparableOneIsSaidSo) {
  write("contracts/cos.yaml", shipped("examples/kv_cache.nhd.yaml"));  // another buffer now
  write("contracts/broken.yaml", "layoutcheck: 1\nname: broken\n");
  ASSERT_EQ(git("git checkout -q -b broken && " + commit("broken")).exit_code, 0);
  const CliResult result = review();
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_TRUE(contains(result.output, "**FAILED: 1 of 3 contracts with errors**")) << result.output;
  EXPECT_TRUE(contains(result.output, "which cannot be diffed against the base's"))
      << result.output;
  EXPECT_TRUE(contains(result.output, "error[incompatible]")) << result.output;
}

TEST_F(ReviewContracts, NothingChangedIsALintAndUsageErrorsExitTwo) {
  const CliResult unchanged = review();
  EXPECT_EQ(unchanged.exit_code, 0) << unchanged.output;
  EXPECT_FALSE(contains(unchanged.output, "### layoutcheck diff")) << unchanged.output;
  EXPECT_EQ(review("").exit_code, 2);  // no --base
  const CliResult unknown = review("--base no-such-ref");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_TRUE(contains(unknown.output, "is not a commit here")) << unknown.output;
}

}  // namespace
