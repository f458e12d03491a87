// The bench subcommand as a user runs it: argument errors, re-rendering a recorded report, and a
// clear answer on a machine without a GPU.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "bench/synthetic_report.h"
#include "cli_runner.h"
#include "layoutcheck/report/json_report.h"
#include "report/json_edit.h"
#include "scratch_folder.h"

namespace layoutcheck {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using testing::CliResult;

// ARGUMENTS as one shell word list (the tests' file names need no quoting).
CliResult run_cli(const std::string& arguments) {
  return testing::run_shell(std::string(LAYOUTCHECK_CLI) + " " + arguments + " 2>&1");
}

class BenchCommand : public ::testing::Test {
 protected:
  // A folder for one run's files, not there yet: the bench makes its --out folder itself.
  std::filesystem::path scratch(const std::string& name) const { return folder_ / name; }

  // Writes text as `name`/report.json; returns that path.
  std::string write_text(const std::string& text, const std::string& name) const {
    const auto path = scratch(name);
    std::filesystem::create_directories(path);
    std::ofstream(path / "report.json") << text;
    return (path / "report.json").string();
  }
  std::string write_recorded(const BenchReport& report, const std::string& name) const {
    return write_text(render_json_report(report), name);
  }

  testing::ScratchFolder folder_{"layoutcheck_bench"};
};

TEST_F(BenchCommand, RerendersARecordedRun) {
  const std::string recorded = write_recorded(testing::synthetic_gdn_report(), "recorded");
  const auto out = scratch("rerendered");
  const CliResult run = run_cli("bench --from " + recorded + " --out " + out.string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("| native | VALID | 4.00 µs [3.94–4.14]"));
  EXPECT_THAT(run.output, HasSubstr("wrote " + (out / "chart.svg").string()));
  for (const char* file : {"report.md", "report.json", "chart.svg"})
    EXPECT_TRUE(std::filesystem::exists(out / file)) << file;
}

TEST_F(BenchCommand, AnInvalidPathIsAFinding) {
  BenchReport report = testing::synthetic_gdn_report();
  // A gate number that fails, so the verdict re-judged from the file is INVALID too.
  PathResult& native = testing::path_named(report, "native");
  native.gates.reference[1].state_rel_l2 = 3e-3;
  native.validity = evaluate_gates(native.gates, report.thresholds);
  native.timings.clear();  // an INVALID path is never timed
  const std::string recorded = write_recorded(report, "invalid");
  const CliResult run =
      run_cli("bench --from " + recorded + " --out " + scratch("invalid_out").string());
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_THAT(run.output, HasSubstr("reference check, batch 64: state rel L2 3.00e-03 > 1.00e-05"));
  EXPECT_THAT(run.output, HasSubstr("layoutcheck bench: native is INVALID"));
}

// The review's reproducer: the negative control hand-marked VALID with native's timings used to
// re-render with a 2.01× speed-up. Re-judged from its gates, the file is refused.
TEST_F(BenchCommand, RefusesARecordedVerdictItsGatesContradict) {
  const Json json = bench_report_to_json(testing::synthetic_gdn_report());
  Json doctored = testing::replaced(json, {"paths", 3, "validity", "valid"}, true);
  doctored = testing::replaced(doctored, {"paths", 3, "validity", "reasons"}, Json::array());
  doctored = testing::replaced(doctored, {"paths", 3, "timings"},
                               testing::at(json, {"paths", 2, "timings"}));
  const std::string recorded = write_text(doctored.dump(), "doctored");
  const auto out = scratch("doctored_out");
  const CliResult run = run_cli("bench --from " + recorded + " --out " + out.string());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr(recorded + ": bench report JSON: paths[3].validity: "
                                               "upstream-direct: recorded verdict VALID but its "
                                               "gates fail: GPU probe: 16128 of 16480"));
  EXPECT_THAT(run.output, Not(HasSubstr("×")));
  EXPECT_FALSE(std::filesystem::exists(out / "report.md"));
}

TEST_F(BenchCommand, ErrorsNameTheFileAndTheMember) {
  const Json json = bench_report_to_json(testing::synthetic_gdn_report());
  const std::string wrong_kind = write_text(
      testing::replaced(json, {"paths", 2, "timings", 0, "per_layer_us", "samples"}, "3.9").dump(),
      "wrong_kind");
  CliResult run = run_cli("bench --from " + wrong_kind + " --out " + scratch("wk_out").string());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr(wrong_kind + ": bench report JSON: paths[2].timings[0]."
                                                 "per_layer_us.samples: expected an array, got a "
                                                 "string"));

  std::string text = json.dump();
  const std::string layers = "\"layers\": 48,";
  ASSERT_NE(text.find(layers), std::string::npos);
  text.replace(text.find(layers), layers.size(), layers + " \"layers\": 2,");
  const std::string repeated = write_text(text, "repeated");
  run = run_cli("bench --from " + repeated + " --out " + scratch("rep_out").string());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr(repeated + ": JSON "));
  EXPECT_THAT(run.output, HasSubstr(": duplicate key 'layers'"));
}

// --from runs nothing: an option that would shape a run is refused rather than ignored.
TEST_F(BenchCommand, RunOptionsDoNotApplyWithFrom) {
  const std::string recorded = write_recorded(testing::synthetic_gdn_report(), "from_options");
  const std::string from = "bench --from " + recorded + " --out " + scratch("fo_out").string();
  for (const char* option : {"--batch 0", "--batch 1,,2", "--set H=0", "--steps 0", "--layers 2",
                             "--replays 5", "--warmup 1", "--no-probe", "--launch overlapped",
                             "--case pangu"}) {
    SCOPED_TRACE(option);
    const CliResult run = run_cli(from + " " + option);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    const std::string name = std::string(option).substr(0, std::string(option).find(' '));
    EXPECT_THAT(run.output, HasSubstr(name + " does not apply with --from: "));
  }
  EXPECT_THAT(run_cli(from + " --batch 1").output,
              HasSubstr("--batch does not apply with --from: the report's batches are "
                        "re-rendered"));
  EXPECT_EQ(run_cli(from + " --quiet").exit_code, 0);  // nothing to keep quiet, but harmless
}

TEST_F(BenchCommand, RejectsABrokenRecording) {
  const auto path = scratch("broken");
  std::filesystem::create_directories(path);
  std::ofstream(path / "report.json") << "{\"schema\": \"layoutcheck-bench/1\"";
  const CliResult run = run_cli("bench --from " + (path / "report.json").string() + " --out " +
                             (path / "out").string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("JSON"));
}

TEST_F(BenchCommand, UsageErrorsExitTwo) {
  const std::string out = " --out " + scratch("usage").string();
  CliResult run = run_cli("bench --batch 1,0" + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("--batch 0 is not a positive batch size"));
  run = run_cli("bench --case nosuch" + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("unknown case 'nosuch'"));
  // Listed by the names their reports carry, which the README and the scripts use.
  EXPECT_THAT(run.output, HasSubstr("(benched: gdn-decode, pangu)"));
  // The Pangu operator bench runs at the real shapes: a layer-graph knob is refused, not ignored.
  run = run_cli("bench --case pangu --batch 8" + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("the pangu bench runs its operators at the real grid shapes"));
  run = run_cli("bench --case rope" + out);  // registered, but no bench paths: said, exit 2
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("case 'rope' has no bench paths"));
  run = run_cli("bench --layers 0" + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("--layers must be 1 or more"));
  run = run_cli("bench --batch 1");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("--out is required"));
}

// Checked on any machine, before the bench looks for a GPU.
TEST_F(BenchCommand, BadNumbersAreUsageErrorsBeforeTheGpu) {
  const std::string out = " --out " + scratch("numbers").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--batch 1,,2", "--batch 1,,2 has an empty entry"},
      {"--batch 8,", "--batch 8, has an empty entry"},
      {"--batch 99999999999999999999", "--batch 99999999999999999999 is not a batch size"},
      {"--batch 0x10", "--batch 0x10 is not a batch size"},
      {"--batch 1 --batch 1", "--batch lists 1 twice"},
      {"--steps 0", "--steps must be 1 or more"},
      {"--layers 99999999999999999999", "expected a whole number, got '99999999999999999999'"},
      {"--steps 99999999999999999999", "expected a whole number, got '99999999999999999999'"},
      {"--launch sometimes", "--launch: sometimes not in {serial,overlapped}"},
  };
  for (const auto& [arguments, message] : cases) {
    SCOPED_TRACE(arguments);
    const CliResult run = run_cli("bench " + arguments + out);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_THAT(run.output, HasSubstr(message));
    EXPECT_THAT(run.output, Not(HasSubstr("needs a GPU")));
  }
}

// Without a GPU the command says so and exits 2; with one (the GPU machine) the smallest run
// completes clean: every path VALID but the negative control, which the gates catch.
TEST_F(BenchCommand, NeedsAGpuOrRuns) {
  const auto out = scratch("gpu");
  const CliResult run = run_cli(
      "bench --quiet --batch 1 --layers 2 --steps 2 --replays 2 --warmup 1 --out " + out.string());
  if (run.output.find("layoutcheck bench: needs a GPU") != std::string::npos) {
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(out / "report.md"));
  } else {
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_TRUE(std::filesystem::exists(out / "report.md")) << run.output;
    EXPECT_THAT(run.output, HasSubstr("| upstream-direct | **INVALID** (negative control)"));
    EXPECT_THAT(run.output, HasSubstr("| native | VALID |"));
  }
}

}  // namespace
}  // namespace layoutcheck
