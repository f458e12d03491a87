// The bench subcommand as a user runs it: argument errors, re-rendering a recorded report, and a
// clear answer on a machine without a GPU.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/synthetic_report.h"
#include "layoutcheck/report/json_report.h"

namespace layoutcheck {
namespace {

using ::testing::HasSubstr;

struct CliRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

CliRun run_cli(const std::string& arguments) {
  const std::string command = std::string(LAYOUTCHECK_CLI) + " " + arguments + " 2>&1";
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  while (std::size_t read = fread(buffer, 1, sizeof buffer, pipe)) run.output.append(buffer, read);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::filesystem::path scratch(const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("layoutcheck_bench_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(path);
  return path;
}

std::string write_recorded(const BenchReport& report, const std::string& name) {
  const auto path = scratch(name);
  std::filesystem::create_directories(path);
  std::ofstream(path / "report.json") << render_json_report(report);
  return (path / "report.json").string();
}

TEST(BenchCommand, RerendersARecordedRun) {
  const std::string recorded = write_recorded(testing::synthetic_gdn_report(), "recorded");
  const auto out = scratch("rerendered");
  const CliRun run = run_cli("bench --from " + recorded + " --out " + out.string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("| native | VALID | 4.00 µs [3.94–4.14]"));
  EXPECT_THAT(run.output, HasSubstr("wrote " + (out / "chart.svg").string()));
  for (const char* file : {"report.md", "report.json", "chart.svg"})
    EXPECT_TRUE(std::filesystem::exists(out / file)) << file;
}

TEST(BenchCommand, AnInvalidPathIsAFinding) {
  BenchReport report = testing::synthetic_gdn_report();
  testing::path_named(report, "native").validity = {false, {"forced for the test"}};
  const std::string recorded = write_recorded(report, "invalid");
  const CliRun run =
      run_cli("bench --from " + recorded + " --out " + scratch("invalid_out").string());
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_THAT(run.output, HasSubstr("layoutcheck bench: native is INVALID"));
}

TEST(BenchCommand, RejectsABrokenRecording) {
  const auto path = scratch("broken");
  std::filesystem::create_directories(path);
  std::ofstream(path / "report.json") << "{\"schema\": \"layoutcheck-bench/1\"";
  const CliRun run = run_cli("bench --from " + (path / "report.json").string() + " --out " +
                             (path / "out").string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("JSON"));
}

TEST(BenchCommand, UsageErrorsExitTwo) {
  const std::string out = " --out " + scratch("usage").string();
  CliRun run = run_cli("bench --batch 1,0" + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("--batch 0 is not a positive batch size"));
  run = run_cli("bench --case pangu" + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("unknown case 'pangu' (known: gdn-decode)"));
  run = run_cli("bench --layers 0" + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("--layers must be 1 or more"));
  run = run_cli("bench --batch 1");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("--out is required"));
}

// Without a GPU the command says so and exits 2; with one (the GPU machine) the smallest run
// completes and writes its report. Either way the answer is checked.
TEST(BenchCommand, NeedsAGpuOrRuns) {
  const auto out = scratch("gpu");
  const CliRun run = run_cli(
      "bench --quiet --batch 1 --layers 2 --steps 2 --replays 2 --warmup 1 --out " + out.string());
  if (run.exit_code == 2) {
    EXPECT_THAT(run.output, HasSubstr("layoutcheck bench: needs a GPU"));
    EXPECT_FALSE(std::filesystem::exists(out / "report.md"));
  } else {
    EXPECT_TRUE(std::filesystem::exists(out / "report.md")) << run.output;
  }
}

}  // namespace
}  // namespace layoutcheck
