// compute-sanitizer's logs read into findings, and the child run bounded: a tool that reports
// nothing is a pass, a report is a finding with its first distinct lines, and a tool that dies,
// hangs or writes no summary is "not verified", never a pass. Fake sanitizers (shell scripts
// writing the logs the real tool writes) stand in for it without a GPU.
#include "layoutcheck/probe/compute_sanitizer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;

// The shape of compute-sanitizer's memcheck log (file and line appear with -lineinfo).
constexpr const char* kMemcheckLog = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 2 bytes
=========     at rope_port+0x2b0 in out_of_bounds_port.hip:8
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7f3a00000400 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f3a00000000 of size 1024 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x2f2e0] in libcuda.so.1
=========
========= Invalid __global__ write of size 2 bytes
=========     at rope_port+0x2b0 in out_of_bounds_port.hip:8
=========     by thread (0,0,0) in block (0,1,0)
=========
========= Invalid __global__ read of size 4 bytes
=========     at rope_port+0x120 in out_of_bounds_port.hip:5
=========     by thread (3,0,0) in block (0,0,0)
=========
========= ERROR SUMMARY: 3 errors
)";

// As compute-sanitizer 2025.3 (CUDA 13) wrote it for probes/rope/racing_readers_port on an H200.
constexpr const char* kRacecheckLog = R"(========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at rope_port+0xce0
=========     and Read access at rope_port+0x14b0 [768 hazards]
=========     and Read access at rope_port+0x14c0 [640 hazards]
========= 
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)";

TEST(SanitizerLog, MemcheckReportsAreCountedAndGrouped) {
  const SanitizerRun run = parse_sanitizer_log("memcheck", kMemcheckLog);
  EXPECT_TRUE(run.completed);
  EXPECT_EQ(run.errors, 3);
  ASSERT_EQ(run.reports.size(), 2u);
  EXPECT_EQ(run.reports[0],
            "Invalid __global__ write of size 2 bytes at rope_port+0x2b0 in "
            "out_of_bounds_port.hip:8 (2x)");
  EXPECT_EQ(
      run.reports[1],
      "Invalid __global__ read of size 4 bytes at rope_port+0x120 in out_of_bounds_port.hip:5");
}

TEST(SanitizerLog, ARaceNamesBothAccesses) {
  const SanitizerRun run = parse_sanitizer_log("racecheck", kRacecheckLog);
  EXPECT_TRUE(run.completed);
  EXPECT_EQ(run.errors, 1);
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_EQ(run.reports[0],
            "Error: Race reported between Write access at rope_port+0xce0 and Read access at "
            "rope_port+0x14b0 [768 hazards] and Read access at rope_port+0x14c0 [640 hazards]");
}

TEST(SanitizerLog, NoSummaryIsNotAPass) {
  const SanitizerRun run = parse_sanitizer_log("memcheck", "========= COMPUTE-SANITIZER\n");
  EXPECT_FALSE(run.completed);
  std::vector<ProbeFinding> findings;
  std::vector<std::string> not_verified;
  add_sanitizer_results({run}, findings, not_verified);
  EXPECT_TRUE(findings.empty());
  ASSERT_EQ(not_verified.size(), 1u);
  EXPECT_NE(not_verified[0].find("memcheck"), std::string::npos);
}

// A fake compute-sanitizer: writes `log` to the file after --log-file, runs `then`, exits `code`.
std::string fake_sanitizer(const std::string& name, const std::string& log, int code,
                           const std::string& then = "") {
  const fs::path log_file = fs::temp_directory_path() / (name + ".log");
  std::ofstream(log_file) << log;
  const fs::path script = fs::temp_directory_path() / name;
  std::ofstream(script) << "#!/bin/sh\nwhile [ $# -gt 0 ]; do\n"
                           "  if [ \"$1\" = --log-file ]; then cp "
                        << log_file.string() << " \"$2\"; fi\n  shift\ndone\n"
                        << then << "\nexit " << code << "\n";
  fs::permissions(script, fs::perms::owner_all);
  return script.string();
}

TEST(SanitizerRun, AReportedRaceBecomesAFinding) {
  const std::string sanitizer = fake_sanitizer("lc_fake_racecheck", kRacecheckLog, 86);
  const SanitizerRun run = run_under_sanitizer(sanitizer, "racecheck", {"/bin/true"}, 30);
  ASSERT_TRUE(run.completed) << run.failure;
  std::vector<ProbeFinding> findings;
  std::vector<std::string> not_verified;
  add_sanitizer_results({run}, findings, not_verified);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "racecheck");
  EXPECT_NE(findings[0].message.find("1 error: Error: Race reported"), std::string::npos)
      << findings[0].message;
  EXPECT_TRUE(not_verified.empty());
}

TEST(SanitizerRun, AKernelMemcheckStoppedKeepsItsReports) {
  // The launch fails (exit 2: "unspecified launch failure") after memcheck reported the access.
  const std::string sanitizer = fake_sanitizer("lc_fake_stopped", kMemcheckLog, 2);
  const SanitizerRun run = run_under_sanitizer(sanitizer, "memcheck", {"/bin/true"}, 30);
  EXPECT_TRUE(run.completed) << run.failure;
  EXPECT_EQ(run.errors, 3);
}

TEST(SanitizerRun, ACleanSummaryIsAPass) {
  const std::string sanitizer =
      fake_sanitizer("lc_fake_clean", "========= ERROR SUMMARY: 0 errors\n", 0);
  const SanitizerRun run = run_under_sanitizer(sanitizer, "memcheck", {"/bin/true"}, 30);
  EXPECT_TRUE(run.completed) << run.failure;
  EXPECT_EQ(run.errors, 0);
}

TEST(SanitizerRun, ALaunchThatFailedIsNotVerified) {
  // The tool summarised, but the port's launch itself failed (no GPU, a compile error): exit 2.
  const std::string sanitizer = fake_sanitizer(
      "lc_fake_failed", "========= ERROR SUMMARY: 0 errors\n", 2, "echo 'no GPU here'");
  const SanitizerRun run = run_under_sanitizer(sanitizer, "memcheck", {"/bin/true"}, 30);
  EXPECT_FALSE(run.completed);
  EXPECT_NE(run.failure.find("no GPU here"), std::string::npos) << run.failure;
}

TEST(SanitizerRun, AHangingToolIsStoppedInBoundedTime) {
  const std::string sanitizer = fake_sanitizer("lc_fake_hang", "", 0, "sleep 60");
  const auto start = std::chrono::steady_clock::now();
  const SanitizerRun run = run_under_sanitizer(sanitizer, "racecheck", {"/bin/true"}, 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_FALSE(run.completed);
  EXPECT_NE(run.failure.find("did not finish in 1 s"), std::string::npos) << run.failure;
}

TEST(SanitizerRun, TheEnvironmentChoosesTheTool) {
  const std::string sanitizer = fake_sanitizer("lc_fake_env", "", 0);
  setenv("LAYOUTCHECK_COMPUTE_SANITIZER", sanitizer.c_str(), 1);
  EXPECT_EQ(find_compute_sanitizer(), sanitizer);
  setenv("LAYOUTCHECK_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
  EXPECT_FALSE(find_compute_sanitizer().has_value());
  unsetenv("LAYOUTCHECK_COMPUTE_SANITIZER");
}

}  // namespace
}  // namespace layoutcheck
