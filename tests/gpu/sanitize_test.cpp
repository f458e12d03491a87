// `run --sanitize` on the GPU: compute-sanitizer's memcheck and racecheck over one launch of a
// port. The correct RoPE port stays clean with both tools run; the port whose threads read a
// staged cos/sin row without a barrier is a racecheck finding whatever its values did; the port
// writing past out's end is a memcheck finding (its buffers are exact-size under the tool).
// Without compute-sanitizer (an AMD build, no CUDA toolkit) the verdict says the tools did not run.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"
#include "gpu/gpu_test_support.h"
#include "gpu/shipped_ports.h"
#include "layoutcheck/probe/compute_sanitizer.h"

namespace layoutcheck {
namespace {

using layoutcheck::testing::run_cli;

const std::string kRope = layoutcheck::testing::shipped_probes("rope");

bool sanitizer_here() {
#if defined(LC_GPU_VENDOR_AMD)
  return false;
#else
  return find_compute_sanitizer().has_value();
#endif
}

#define LC_REQUIRE_SANITIZER()                                                         \
  do {                                                                                 \
    LC_REQUIRE_GPU();                                                                  \
    if (!sanitizer_here()) GTEST_SKIP() << "compute-sanitizer is not on this machine"; \
  } while (false)

TEST(RunSanitize, TheCorrectPortIsCleanUnderBothTools) {
  LC_REQUIRE_SANITIZER();
  const auto run = run_cli({"run", kRope + "half_split_port.yaml", "--sanitize"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("port half_split_port: clean"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("not verified"), std::string::npos) << run.output;
}

TEST(RunSanitize, ReadersRacingOnAStagedRowAreARacecheckFinding) {
  LC_REQUIRE_SANITIZER();
  const auto run = run_cli({"run", kRope + "racing_readers_port.yaml", "--sanitize"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("racecheck: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Race reported"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find(": clean"), std::string::npos) << run.output;
}

TEST(RunSanitize, AWritePastTheEndIsAMemcheckFinding) {
  LC_REQUIRE_SANITIZER();
  const auto run = run_cli({"run", kRope + "out_of_bounds_port.yaml", "--sanitize"});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("memcheck: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Invalid __global__ write"), std::string::npos) << run.output;
}

TEST(RunSanitize, WithoutTheToolTheVerdictSaysSo) {
  LC_REQUIRE_GPU();
  setenv("LAYOUTCHECK_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
  const auto run = run_cli({"run", kRope + "half_split_port.yaml", "--sanitize"});
  unsetenv("LAYOUTCHECK_COMPUTE_SANITIZER");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("not verified: memcheck and racecheck"), std::string::npos)
      << run.output;
}

TEST(RunSanitize, APlainRunSaysWhatItDidNotLookFor) {
  LC_REQUIRE_GPU();
  const auto run = run_cli({"run", kRope + "half_split_port.yaml"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("note: memory errors and races"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace layoutcheck
