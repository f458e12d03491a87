// The framework figures the bench holds the native path to: read as the script writes them, put
// beside the operator of that name and shape, and refused when they come from another GPU or are
// not figures at all (each a clear error naming the file, before anything is timed).
#include "cases/pangu/framework_figures.h"

#include <gtest/gtest.h>

#include <string>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/parse.h"
#include "scratch_folder.h"

namespace layoutcheck::pangu {
namespace {

// The script's output as it writes it (scripts/pangu-framework-bench.py --json), cut to three rows:
// LayerNorm + gather's compiled output failed the check against eager.
constexpr const char* kFigures = R"json({
  "measures": "pangu framework figures", "device": "NVIDIA H200",
  "method": {"calls_per_graph": 24, "rotation_bytes": 1073741824, "per_call": "replay / calls"},
  "window": [2, 6, 12], "shift": [-1, -3, -6],
  "operators": [
    {"operator": "LayerNorm", "shape": [1, 33120, 384], "bytes": 50872320,
     "eager_graph": {"median_us": 51.1, "p10_us": 51.0, "p90_us": 51.2},
     "compile": {"mode": "max-autotune-no-cudagraphs", "median_us": 16.8},
     "check": {"passed": true, "bitwise": false, "max_abs_diff": 0.0039}},
    {"operator": "LayerNorm + gather", "shape": [1, 33120, 384],
     "eager_graph": {"median_us": 334.0},
     "compile": {"mode": "max-autotune-no-cudagraphs", "median_us": 13.0},
     "check": {"passed": false, "bitwise": false, "max_abs_diff": 7.5}},
    {"operator": "window gather", "shape": [1, 33120, 384],
     "eager_graph": {"median_us": 285.0},
     "compile": {"mode": null, "error": "no compiler"},
     "check": {"passed": false, "bitwise": true, "max_abs_diff": null}}
  ]})json";

constexpr std::int64_t kCalls = 24;
constexpr std::int64_t kRotation = std::int64_t{1} << 30;

class FrameworkFiguresFile : public ::testing::Test {
 protected:
  std::string write(const std::string& text) { return folder_.write("figures.json", text); }

  // The one diagnostic loading `text` (and holding it to an H200 and the bench's method) throws.
  std::string failure(const std::string& text) {
    try {
      const FrameworkFigures figures = load_framework_figures(write(text));
      require_comparable(figures, "NVIDIA H200", kCalls, kRotation);
    } catch (const InputError& error) {
      EXPECT_EQ(error.diagnostics().size(), 1u);
      const std::string line = error.diagnostics().front().str();
      EXPECT_NE(line.find("figures.json"), std::string::npos) << line;
      return line;
    }
    ADD_FAILURE() << "accepted: " << text;
    return "";
  }

 private:
  layoutcheck::testing::ScratchFolder folder_{"lc_framework_figures"};
};

TEST_F(FrameworkFiguresFile, TheScriptsFiguresSitBesideTheirOperatorsAndAFailedCheckIsLeftOut) {
  const FrameworkFigures figures = load_framework_figures(write(kFigures));
  EXPECT_EQ(figures.device, "NVIDIA H200");
  EXPECT_NO_THROW(require_comparable(figures, "NVIDIA H200", kCalls, kRotation));
  ASSERT_EQ(figures.operators.size(), 3u);

  std::vector<OperatorMeasurement> operators(4);
  operators[0].name = "LayerNorm";
  operators[0].shape = "[1,33120,384]";
  operators[1].name = "LayerNorm";
  operators[1].shape = "[1,331200,384]";  // another shape: no figure, however alike the text
  operators[2].name = "LayerNorm + gather";
  operators[2].shape = "[1,33120,384] → 36864";
  operators[3].name = "window gather";
  operators[3].shape = "[1,33120,384] → 36864";
  attach_framework_figures(figures, operators);

  ASSERT_EQ(operators[0].framework.size(), 2u);
  EXPECT_EQ(operators[0].framework[0].mode, kTorchCompile);
  EXPECT_DOUBLE_EQ(operators[0].framework[0].us, 16.8);
  EXPECT_EQ(operators[0].framework[1].mode, kEagerGraph);
  EXPECT_DOUBLE_EQ(operators[0].framework[1].us, 51.1);
  EXPECT_TRUE(operators[1].framework.empty());
  // A compiled output that failed its check, or no compiled output at all: eager's figure only.
  ASSERT_EQ(operators[2].framework.size(), 1u);
  EXPECT_EQ(operators[2].framework[0].mode, kEagerGraph);
  ASSERT_EQ(operators[3].framework.size(), 1u);
  EXPECT_EQ(operators[3].framework[0].mode, kEagerGraph);
}

TEST_F(FrameworkFiguresFile, FiguresFromAnotherGpuOrTimedAnotherWayAreRefused) {
  const FrameworkFigures figures = load_framework_figures(write(kFigures));
  try {
    require_comparable(figures, "NVIDIA H100 80GB HBM3", kCalls, kRotation);
    ADD_FAILURE() << "H200 figures were accepted on an H100";
  } catch (const InputError& error) {
    const std::string text = error.diagnostics().front().str();
    EXPECT_NE(text.find("measured on NVIDIA H200, not on this NVIDIA H100 80GB HBM3"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("scripts/pangu-framework-bench.py"), std::string::npos) << text;
  }
  EXPECT_THROW(require_comparable(figures, "NVIDIA H200", 1, kRotation), InputError);
  EXPECT_THROW(require_comparable(figures, "NVIDIA H200", kCalls, 0), InputError);
}

TEST_F(FrameworkFiguresFile, TheRecordedFiguresAreTheBenchsMethod) {
  for (const auto& [file, device] :
       {std::pair<std::string, std::string>{"pangu-framework-h100.json", "NVIDIA H100 80GB HBM3"},
        {"pangu-framework-h200.json", "NVIDIA H200"}}) {
    SCOPED_TRACE(file);
    const FrameworkFigures figures =
        load_framework_figures(std::string(LAYOUTCHECK_TEST_DATA) + "/../results/" + file);
    EXPECT_NO_THROW(require_comparable(figures, device, kCalls, kRotation));
    ASSERT_EQ(figures.operators.size(), 10u);  // five operators at two grid levels
    for (const FrameworkFigures::Operator& op : figures.operators)
      EXPECT_EQ(op.figures.size(), 2u) << op.name << " " << op.shape;
  }
}

// The script's partition is the bench's contract's: the same windows, rolled the same way.
TEST_F(FrameworkFiguresFile, FiguresOfAnotherWindowPartitionAreRefused) {
  const auto shifted_windows = [](std::int64_t lat, std::int64_t lon, std::int64_t c) {
    LoadOptions options;
    options.overrides = {{"Z", 8}, {"LAT", lat}, {"LON", lon}, {"C", c}};
    return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/windows.shifted.yaml",
                         options);
  };
  const Contract windows = shifted_windows(46, 90, 384);
  const FrameworkFigures recorded = load_framework_figures(std::string(LAYOUTCHECK_TEST_DATA) +
                                                           "/../results/pangu-framework-h100.json");
  EXPECT_NO_THROW(require_same_windows(recorded, windows));
  EXPECT_NO_THROW(require_same_windows(recorded, shifted_windows(91, 180, 192)));
  EXPECT_NO_THROW(require_same_windows(load_framework_figures(write(kFigures)), windows));
  std::string rolled_back = kFigures;
  rolled_back.replace(rolled_back.find("[-1, -3, -6]"), 12, "[1, 3, 6]");
  try {
    require_same_windows(load_framework_figures(write(rolled_back)), windows);
    ADD_FAILURE() << "a roll the other way was accepted";
  } catch (const InputError& error) {
    const std::string text = error.diagnostics().front().str();
    EXPECT_NE(text.find("rolled by (1, 3, 6), the bench's contract (pangu.windows.shifted) has "
                        "windows (2, 6, 12) rolled by (-1, -3, -6)"),
              std::string::npos)
        << text;
  }
  std::string narrow = kFigures;
  narrow.replace(narrow.find("[2, 6, 12]"), 10, "[2, 6, 6]");
  EXPECT_THROW(require_same_windows(load_framework_figures(write(narrow)), windows), InputError);
}

TEST_F(FrameworkFiguresFile, FiguresOfTheOneCallAGraphMethodAreRefused) {
  // Figures once recorded on the H200: one call a graph on the same inputs, no method recorded.
  const std::string recorded = std::string(LAYOUTCHECK_TEST_DATA) +
                               "/cases/pangu/fixtures/framework-one-call-a-graph-h200.json";
  try {
    load_framework_figures(recorded);
    ADD_FAILURE() << "figures without a timing method were accepted";
  } catch (const InputError& error) {
    const std::string text = error.diagnostics().front().str();
    EXPECT_NE(text.find("records no timing method"), std::string::npos) << text;
  }
}

// A file of the H200 timed the bench's way holding these operators.
std::string h200_file(const std::string& operators) {
  return R"({"device": "NVIDIA H200", "method": {"calls_per_graph": 24,
             "rotation_bytes": 1073741824}, "window": [2, 6, 12], "shift": [-1, -3, -6],
             "operators": [)" +
         operators + "]}";
}

TEST_F(FrameworkFiguresFile, EachBadFileIsAClearErrorNamingTheFile) {
  const auto fails_with = [&](const std::string& text, const std::string& message) {
    const std::string line = failure(text);
    EXPECT_NE(line.find(message), std::string::npos) << line;
  };
  const std::string layer_norm = R"({"operator": "LayerNorm", "shape": [1, 33120, 384],
      "compile": {"median_us": 17.8}, "check": {"passed": true}})";
  fails_with("{\"device\": \"NVIDIA H200\",\n \"operators\": [}", "JSON 2:");
  fails_with(R"({"operators": [)" + layer_norm + "]}", "names no device");
  fails_with(R"({"device": "", "operators": []})", "names no device");
  fails_with(R"({"device": "NVIDIA H200", "operators": []})", "records no timing method");
  fails_with(R"({"device": "NVIDIA H200", "method": {"calls_per_graph": 24}, "operators": []})",
             "not a framework figures file");
  fails_with(R"({"device": "NVIDIA H200", "method": {"calls_per_graph": 24,
      "rotation_bytes": 1073741824}, "window": [2, 6], "shift": [-1, -3, -6], "operators": []})",
             "not a framework figures file");
  fails_with(R"({"device": "NVIDIA H200", "method": {"calls_per_graph": 1,
      "rotation_bytes": 1073741824}, "window": [2, 6, 12], "shift": [-1, -3, -6],
      "operators": []})",
             "timed as 1 calls a graph");
  fails_with(R"({"device": "NVIDIA H200", "method": {"calls_per_graph": 24,
      "rotation_bytes": 1073741824}})",
             "not a framework figures file");
  fails_with(h200_file(R"({"operator": "LayerNorm"})"), "not a framework figures file");
  fails_with(h200_file(R"({"operator": "LayerNorm", "shape": [1, 33120, 384],
      "compile": {"median_us": 17.8}})"),
             "not a framework figures file");  // no check recorded
  fails_with(h200_file(R"({"operator": "LayerNorm", "shape": [1, 0, 384],
      "compile": {"median_us": 17.8}, "check": {"passed": true}})"),
             "not a framework figures file");
  fails_with(h200_file(R"({"operator": "LayerNorm", "shape": [1, 33120, 384],
      "compile": {"median_us": -1}, "check": {"passed": true}})"),
             "compile median_us is not a positive time");
  fails_with(h200_file(R"({"operator": "LayerNorm", "shape": [1, 33120, 384],
      "compile": {"median_us": "fast"}, "check": {"passed": true}})"),
             "not a framework figures file");
  EXPECT_NO_THROW(load_framework_figures(write(h200_file(layer_norm))));
}

TEST_F(FrameworkFiguresFile, AMissingFileIsAClearError) {
  EXPECT_THROW(load_framework_figures("/nonexistent/figures.json"), InputError);
}

}  // namespace
}  // namespace layoutcheck::pangu
