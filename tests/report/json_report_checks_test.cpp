// A report read back is re-judged, not believed: doctored verdicts and nonsense counts, names or
// checkpoints are refused at load, each with the JSON member that is wrong.
#include "layoutcheck/report/json_report_checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>

#include "bench/synthetic_report.h"
#include "layoutcheck/report/json_report.h"
#include "report/json_edit.h"

namespace layoutcheck {
namespace {

using namespace layoutcheck::testing;
using ::testing::HasSubstr;

Json synthetic_json() {
  return bench_report_to_json(synthetic_gdn_report());
}

TEST(JsonReportChecks, TheSyntheticReportLoads) {
  EXPECT_EQ(load_error(synthetic_json()), "");
}

// The review's reproducer: the negative control marked VALID and given native's timings used to
// come out with a 2.01× ratio.
TEST(JsonReportChecks, RejudgesAControlMarkedValid) {
  const Json json = synthetic_json();
  Json doctored = replaced(json, {"paths", 3, "validity"},
                           Json::object().set("valid", true).set("reasons", Json::array()));
  doctored = replaced(doctored, {"paths", 3, "timings"}, at(json, {"paths", 2, "timings"}));
  EXPECT_EQ(load_error(doctored),
            "bench report JSON: paths[3].validity: upstream-direct: recorded verdict VALID but its "
            "gates fail: GPU probe: 16128 of 16480 elements misread; reference check, batch 1: "
            "output rel L2 1.41e+00 > 1.00e-02; reference check, batch 1: state rel L2 9.70e-01 > "
            "1.00e-05; and 14 more");
}

TEST(JsonReportChecks, RejudgesAValidPathWhoseGateNumberFails) {
  const Json json =
      replaced(synthetic_json(), {"paths", 2, "gates", "reference", 1, "output_rel_l2"}, 0.5);
  EXPECT_EQ(load_error(json),
            "bench report JSON: paths[2].validity: native: recorded verdict VALID but its gates "
            "fail: reference check, batch 64: output rel L2 5.00e-01 > 1.00e-02");
}

TEST(JsonReportChecks, GpuProbeMisreadsMakeAPathInvalid) {
  const Json json = replaced(synthetic_json(), {"paths", 1, "gates", "probe", "misread"}, 7);
  EXPECT_THAT(load_error(json),
              HasSubstr("paths[1].validity: adapter+upstream: recorded verdict VALID but its "
                        "gates fail: GPU probe: 7 of 16480 elements misread"));
}

TEST(JsonReportChecks, RejudgesAPathMarkedInvalidWhoseGatesPass) {
  const Json json = replaced(synthetic_json(), {"paths", 2, "validity", "valid"}, false);
  EXPECT_THAT(load_error(json),
              HasSubstr("paths[2].validity: native: recorded verdict INVALID but its gates pass"));
}

TEST(JsonReportChecks, RejectsReasonsTheGatesDoNotGive) {
  const Json json = replaced(synthetic_json(), {"paths", 3, "validity", "reasons"},
                             Json::array().push("it was slow"));
  EXPECT_THAT(load_error(json), HasSubstr("paths[3].validity.reasons: upstream-direct: the "
                                          "recorded reasons are not those of its gates"));
}

TEST(JsonReportChecks, TheNegativeControlIsWhatTheCaseSays) {
  EXPECT_THAT(load_error(replaced(synthetic_json(), {"paths", 3, "negative_control"}, false)),
              HasSubstr("paths[3].negative_control: upstream-direct is the gdn-decode negative "
                        "control, but is recorded as false"));
  EXPECT_THAT(load_error(replaced(synthetic_json(), {"paths", 2, "negative_control"}, true)),
              HasSubstr("paths[2].negative_control: native is not the gdn-decode negative "
                        "control, but is recorded as true"));
}

// The bounds are the case's: a file that loosens one, or turns a required gate off, is refused,
// whatever its paths' numbers. A stricter bound is the file's to keep.
TEST(JsonReportChecks, ThresholdsNoLooserThanTheCasesAndNoRequiredGateOff) {
  EXPECT_EQ(load_error(replaced(synthetic_json(), {"thresholds", "output_rel_l2"}, 10.0)),
            "bench report JSON: thresholds.output_rel_l2: gdn-decode holds paths to 0.01, the "
            "file to 10");
  EXPECT_THAT(load_error(replaced(synthetic_json(), {"thresholds", "state_rel_l2"}, -1.0)),
              HasSubstr("thresholds.state_rel_l2: gdn-decode holds paths to 1e-05, the file "
                        "to -1"));
  EXPECT_THAT(
      load_error(replaced(synthetic_json(), {"thresholds", "multi_step_state_rel_l2"}, 1e-3)),
      HasSubstr("thresholds.multi_step_state_rel_l2"));
  EXPECT_EQ(load_error(replaced(synthetic_json(), {"thresholds", "require_multi_step"}, false)),
            "bench report JSON: thresholds.require_multi_step: gdn-decode requires that gate; the "
            "file turns it off");
  EXPECT_THAT(load_error(replaced(synthetic_json(), {"thresholds", "require_determinism"}, false)),
              HasSubstr("thresholds.require_determinism"));
  // Stricter: the recorded verdicts are then re-judged by it (native's 1e-3-level errors fail).
  EXPECT_THAT(load_error(replaced(synthetic_json(), {"thresholds", "output_rel_l2"}, 1e-9)),
              HasSubstr("recorded verdict VALID but its gates fail"));
}

TEST(JsonReportChecks, EveryDeclaredPathIsRecordedTheNegativeControlToo) {
  const Json json = synthetic_json();
  Json paths = Json::array();
  for (int i = 0; i < 3; ++i) paths.push(at(json, {"paths", i}));
  EXPECT_EQ(load_error(replaced(json, {"paths"}, paths)),
            "bench report JSON: paths: 'upstream-direct' is missing (gdn-decode runs every path "
            "it declares)");
}

TEST(JsonReportChecks, AnOperatorBenchReportIsNotReRenderedAsIfChecked) {
  const Json operators = Json::object().set("case", "pangu").set("operators", Json::array());
  EXPECT_THAT(load_error(operators),
              HasSubstr("an operator bench report (layoutcheck bench --case pangu): --from "
                        "re-renders layer-graph bench reports"));
}

struct Nonsense {
  const char* what;
  std::function<Json(const Json&)> edit;
  const char* error;
};

// An overlapped run must have gated every path on overlapped launches: a VALID path without the
// gate is re-judged INVALID. A serial run has no such gate to show.
TEST(JsonReportChecks, TheOverlappedLaunchGateBelongsToOverlappedRuns) {
  const Json json = bench_report_to_json(overlapped_gdn_report());
  EXPECT_EQ(load_error(json), "");
  Json serial_gates = at(synthetic_json(), {"paths", 2, "gates"});
  serial_gates.set("overlapped_launches", at(json, {"paths", 2, "gates", "overlapped_launches"}));
  EXPECT_EQ(load_error(replaced(synthetic_json(), {"paths", 2, "gates"}, serial_gates)),
            "bench report JSON: paths[2].gates.overlapped_launches: native: an overlapped-launch "
            "gate in a run that launches serially");
  const Json& gates = at(json, {"paths", 2, "gates"});
  Json without = Json::object();
  for (const auto& [key, value] : gates.members())
    if (key != "overlapped_launches") without.set(key, value);
  EXPECT_THAT(load_error(replaced(json, {"paths", 2, "gates"}, without)),
              HasSubstr("paths[2].validity: native: recorded verdict VALID but its gates fail: "
                        "overlapped-launch gate did not run"));
}

TEST(JsonReportChecks, RejectsNonsenseNamingTheMember) {
  const Json checkpoints_decreasing =
      Json::array()
          .push(
              Json::object().set("step", 256).set("output_rel_l2", 1e-3).set("state_rel_l2", 1e-7))
          .push(Json::object().set("step", 1).set("output_rel_l2", 1e-3).set("state_rel_l2", 1e-7));
  const std::vector<Nonsense> cases = {
      {"no layers", [](const Json& j) { return replaced(j, {"layers"}, 0); },
       "bench report JSON: layers: must be 1 or more, got 0"},
      {"no paths", [](const Json& j) { return replaced(j, {"paths"}, Json::array()); },
       "bench report JSON: paths: no path recorded"},
      {"no batches", [](const Json& j) { return replaced(j, {"batches"}, Json::array()); },
       "bench report JSON: batches: lists no batch"},
      {"batch 0",
       [](const Json& j) {
         return replaced(j, {"batches", 1}, 0);
       },
       "bench report JSON: batches[1]: must be 1 or more, got 0"},
      {"batch twice",
       [](const Json& j) {
         return replaced(j, {"batches", 2}, 64);
       },
       "bench report JSON: batches[2]: 64 is listed twice"},
      {"unknown baseline", [](const Json& j) { return replaced(j, {"baseline"}, "fastest"); },
       "bench report JSON: baseline: 'fastest' names no path"},
      {"repeated path",
       [](const Json& j) {
         return replaced(j, {"paths", 1, "name"}, "baseline");
       },
       "bench report JSON: paths[1].name: 'baseline' is also the name of paths[0]"},
      {"unknown comparison",
       [](const Json& j) {
         return replaced(j, {"comparisons", 0, "reference"}, "ghost");
       },
       "bench report JSON: comparisons[0].reference: 'ghost' names no path"},
      {"unknown speed-up",
       [](const Json& j) {
         return replaced(j, {"speedups", 0, "candidate"}, "ghost");
       },
       "bench report JSON: speedups[0].candidate: 'ghost' names no path"},
      {"no sizes", [](const Json& j) { return replaced(j, {"sizes"}, Json::object()); },
       "bench report JSON: sizes: no problem size recorded"},
      {"zero size",
       [](const Json& j) {
         return replaced(j, {"sizes", "HV"}, 0);
       },
       "bench report JSON: sizes.HV: must be 1 or more, got 0"},
      {"missing size",
       [](const Json& j) { return replaced(j, {"sizes"}, Json::object().set("H", 16)); },
       "bench report JSON: sizes.HV: missing (gdn-decode records H, HV, K, V and W)"},
      {"zero steps",
       [](const Json& j) {
         return replaced(j, {"paths", 0, "gates", "multi_step", "steps"}, 0);
       },
       "bench report JSON: paths[0].gates.multi_step.steps: must be 1 or more, got 0"},
      {"checkpoints short of steps",
       [](const Json& j) {
         return replaced(j, {"paths", 1, "gates", "multi_step", "steps"}, 2048);
       },
       "bench report JSON: paths[1].gates.multi_step.checkpoints: steps must increase from 1 or "
       "more and end at steps (2048), got [1, 256, 1024]"},
      {"checkpoints decreasing",
       [&](const Json& j) {
         return replaced(j, {"paths", 2, "gates", "multi_step", "checkpoints"},
                         checkpoints_decreasing);
       },
       "bench report JSON: paths[2].gates.multi_step.checkpoints: steps must increase from 1 or "
       "more and end at steps (1024), got [256, 1]"},
      {"valid without a reference check at a batch",
       [](const Json& j) {
         const Json& reference = at(j, {"paths", 0, "gates", "reference"});
         return replaced(j, {"paths", 0, "gates", "reference"},
                         Json::array().push(reference[0]).push(reference[2]));
       },
       "bench report JSON: paths[0].gates.reference: baseline is VALID but has no reference "
       "check at batch 64"},
      {"timed at an unlisted batch",
       [](const Json& j) {
         return replaced(j, {"paths", 2, "timings", 1, "batch"}, 8);
       },
       "bench report JSON: paths[2].timings[1].batch: native: batch 8 is not one of the "
       "report's batches"},
      {"timed twice",
       [](const Json& j) {
         return replaced(j, {"paths", 2, "timings", 1, "batch"}, 1);
       },
       "bench report JSON: paths[2].timings[1].batch: native: batch 1 is timed twice"},
      {"an INVALID path timed",
       [](const Json& j) {
         return replaced(j, {"paths", 3, "timings"}, at(j, {"paths", 2, "timings"}));
       },
       "bench report JSON: paths[3].timings: upstream-direct is INVALID, and an INVALID path is "
       "never timed"},
  };
  const Json json = synthetic_json();
  for (const Nonsense& nonsense : cases) {
    SCOPED_TRACE(nonsense.what);
    EXPECT_EQ(load_error(nonsense.edit(json)), nonsense.error);
  }
}

// A recorded figure that breaks physics (0.001 µs per layer: a speed-up of thousands, over a
// thousand per cent of the copy bandwidth) is refused at load, not rendered.
TEST(JsonReportChecks, RefusesFiguresThatBreakPhysics) {
  const Json json = synthetic_json();
  const std::size_t samples =
      at(json, {"paths", 2, "timings", 0, "per_layer_us", "samples"}).size();
  Json fast = Json::array();
  for (std::size_t i = 0; i < samples; ++i) fast.push(0.001);
  const std::string error =
      load_error(replaced(json, {"paths", 2, "timings", 0, "per_layer_us", "samples"}, fast));
  EXPECT_THAT(error, HasSubstr("paths[2].timings[0].per_layer_us: native at batch 1"));
  EXPECT_THAT(error, HasSubstr("not a measurement"));

  Json negative = at(json, {"paths", 2, "timings", 0, "per_layer_us", "samples"});
  negative = replaced(negative, {0}, -1.0);
  EXPECT_THAT(
      load_error(replaced(json, {"paths", 2, "timings", 0, "per_layer_us", "samples"}, negative)),
      HasSubstr("is not a positive time"));
}

TEST(JsonReportChecks, CheckRecordedReportAcceptsTheModelAsRun) {
  EXPECT_NO_THROW(check_recorded_report(synthetic_gdn_report()));
  BenchReport report = synthetic_gdn_report();
  path_named(report, "native").validity = {true, {}};
  path_named(report, "native").gates.determinism->outputs.mismatches = 1;
  EXPECT_THROW(check_recorded_report(report), std::runtime_error);
}

}  // namespace
}  // namespace layoutcheck
