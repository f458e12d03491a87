// `layoutcheck probe` end to end: exit codes, the text summary, and JSON that agrees with
// `layoutcheck diff --json` on the same contracts.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {
namespace {

using Result = testing::CliResult;

Result run(const std::string& arguments) {
  return testing::run_shell(std::string(LAYOUTCHECK_CLI) + " " + arguments + " 2>&1");
}

std::string contract(const std::string& name) {
  return std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/" + name + ".yaml";
}

const std::string kOddShapeSets = " --set H=3 --set HV=9 --set K=5 --set V=7";

TEST(ProbeCommand, UpstreamKernelFedFlatBuffersMisreadsWhatDiffSays) {
  const Result probe = run("probe --producer " + contract("qwen3_5.qkvz") + " --consumer " +
                           contract("qwen3_next.qkvz") + kOddShapeSets + " --json");
  ASSERT_EQ(probe.exit_code, 1) << probe.output;
  const Json json = Json::parse(probe.output);
  const Result diff = run("diff " + contract("qwen3_5.qkvz") + " " + contract("qwen3_next.qkvz") +
                          kOddShapeSets + " --json");
  ASSERT_EQ(diff.exit_code, 1) << diff.output;
  const Json diff_json = Json::parse(diff.output);
  EXPECT_EQ(json["probed"].as_int(), 156);
  EXPECT_EQ(json["misread"].as_int(), diff_json["misread"].as_int());
  EXPECT_EQ(json["unresolved"].as_int(), 0);
  EXPECT_TRUE(json["agrees_with_diff"].as_bool());
  EXPECT_EQ(json["runs"].dump(), diff_json["runs"].dump());
  ASSERT_EQ(json["fields"].size(), 4u);
  EXPECT_EQ(json["fields"][0]["name"].as_string(), "Q");
  EXPECT_EQ(json["fields"][0]["elements"].as_int(), 15);
  EXPECT_TRUE(json["fields"][0].find("misread") != nullptr);
  // The buffers not probed, both sides alike: the consumer's sibling ba, the built-in state.
  ASSERT_EQ(json["buffers_not_probed"].size(), 2u);
  EXPECT_EQ(json["buffers_not_probed"][0]["buffer"].as_string(), "ba");
  EXPECT_EQ(json["buffers_not_probed"][0]["kernel"].as_string(), "qwen3_next.ba");
  EXPECT_EQ(json["buffers_not_probed"][0]["model"].as_string(), "qwen3_next.ba");
  EXPECT_EQ(json["buffers_not_probed"][1]["buffer"].as_string(), "state");
  EXPECT_EQ(json["buffers_not_probed"][1]["kernel"].as_string(), "gdn.state.hkv");
}

TEST(ProbeCommand, TextSaysWhatTheKernelReadsFromWhere) {
  const Result probe = run("probe --producer " + contract("qwen3_5.ba") + " --consumer " +
                           contract("qwen3_next.ba") + kOddShapeSets);
  EXPECT_EQ(probe.exit_code, 1) << probe.output;
  EXPECT_NE(probe.output.find("the kernel reads B[3:6] from offsets 6-8, which hold B[6:9]"),
            std::string::npos)
      << probe.output;
  EXPECT_NE(probe.output.find("exactly the static diff's set"), std::string::npos) << probe.output;
}

TEST(ProbeCommand, KernelReadingItsOwnLayoutIsCleanForEveryBuffer) {
  for (const char* name : {"qwen3_next.qkvz", "qwen3_5.ba", "state.hvk"}) {
    const Result probe = run("probe --producer " + contract(name) + " --consumer " +
                             contract(name) + " --set H=2 --set HV=4 --set K=6 --set V=6");
    EXPECT_EQ(probe.exit_code, 0) << probe.output;
    EXPECT_NE(probe.output.find("verdict: clean"), std::string::npos) << probe.output;
  }
}

TEST(ProbeCommand, AMutantDisagreesWithItsContractAndSaysSo) {
  const Result probe =
      run("probe --producer " + contract("qwen3_5.qkvz") + " --consumer " +
          contract("qwen3_5.qkvz") + kOddShapeSets + " --backend cpu:mutant:q_k_swapped");
  EXPECT_EQ(probe.exit_code, 1) << probe.output;
  EXPECT_NE(probe.output.find("the probes and the contracts disagree"), std::string::npos)
      << probe.output;
  const Result numeric =
      run("probe --producer " + contract("qwen3_5.qkvz") + " --consumer " +
          contract("qwen3_5.qkvz") + kOddShapeSets + " --backend cpu:mutant:l2norm_skipped");
  EXPECT_EQ(numeric.exit_code, 1) << numeric.output;
  EXPECT_NE(numeric.output.find("verdict: no layout misread, values differ"), std::string::npos)
      << numeric.output;
}

TEST(ProbeCommand, BadInputIsExitTwoWithAClearMessage) {
  const Result mismatched = run("probe --producer " + contract("qwen3_5.qkvz") + " --consumer " +
                                contract("qwen3_5.ba") + kOddShapeSets);
  EXPECT_EQ(mismatched.exit_code, 2) << mismatched.output;
  EXPECT_NE(mismatched.output.find("error"), std::string::npos) << mismatched.output;
  const Result missing =
      run("probe --producer /nonexistent.yaml --consumer " + contract("qwen3_5.ba"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  const Result no_consumer = run("probe --producer " + contract("qwen3_5.ba"));
  EXPECT_EQ(no_consumer.exit_code, 2) << no_consumer.output;
  const Result unknown = run("probe --producer " + contract("qwen3_5.ba") + " --consumer " +
                             contract("qwen3_5.ba") + " --backend nosuch");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("no runner named 'nosuch'"), std::string::npos) << unknown.output;
}

// Sizes that would take the machine's memory are refused before anything is allocated.
TEST(ProbeCommand, SizesBeyondMemoryAreExitTwoNotACrash) {
  const Result huge_heads = run("probe --producer " + contract("qwen3_5.ba") + " --consumer " +
                                contract("qwen3_next.ba") + " --set H=100000 --set HV=100000");
  EXPECT_EQ(huge_heads.exit_code, 2) << huge_heads.output;
  EXPECT_NE(huge_heads.output.find("gdn.state.hkv: holds 1638400000 elements a row"),
            std::string::npos)
      << huge_heads.output;
  const Result huge_batch = run("probe --producer " + contract("qwen3_5.qkvz") + " --consumer " +
                                contract("qwen3_next.qkvz") + " --max-batch 99999999999");
  EXPECT_EQ(huge_batch.exit_code, 2) << huge_batch.output;
  EXPECT_NE(huge_batch.output.find("--max-batch 16384 needs 49.6 GiB per runner call"),
            std::string::npos)
      << huge_batch.output;
}

TEST(ProbeCommand, GpuBackendWithoutGpuSupportIsExitTwo) {
  const Result backends = run("probe --list-backends");
  ASSERT_EQ(backends.exit_code, 0) << backends.output;
  EXPECT_NE(backends.output.find("cpu:mutant:z_from_v"), std::string::npos) << backends.output;
  if (backends.output.find("\ngpu") != std::string::npos || backends.output.rfind("gpu", 0) == 0)
    GTEST_SKIP() << "this build has a GPU backend";
  const Result probe = run("probe --producer " + contract("qwen3_5.ba") + " --consumer " +
                           contract("qwen3_5.ba") + " --backend gpu");
  EXPECT_EQ(probe.exit_code, 2) << probe.output;
  EXPECT_NE(probe.output.find("this build has no GPU backend"), std::string::npos) << probe.output;
}

}  // namespace
}  // namespace layoutcheck
