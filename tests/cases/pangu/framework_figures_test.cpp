// The framework figures the bench holds the native path to: read as the script writes them, put
// beside the operator of that name and shape, and refused when they come from another GPU or are
// not figures at all (each a clear error naming the file, before anything is timed).
#include "cases/pangu/framework_figures.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck::pangu {
namespace {

namespace fs = std::filesystem;

const std::string kRecorded =
    std::string(LAYOUTCHECK_TEST_DATA) + "/../results/pangu-framework-h200.json";

TEST(FrameworkFigures, TheRecordedH200FiguresLoadAndSitBesideTheirOperators) {
  const FrameworkFigures figures = load_framework_figures(kRecorded);
  EXPECT_EQ(figures.device, "NVIDIA H200");
  ASSERT_EQ(figures.operators.size(), 10u);  // five operators at two grid levels

  std::vector<OperatorMeasurement> operators(3);
  operators[0].name = "LayerNorm + gather";
  operators[0].shape = "[1,33120,384] → 36864";
  operators[1].name = "LayerNorm";
  operators[1].shape = "[1,33120,384]";
  operators[2].name = "LayerNorm";
  operators[2].shape = "[1,331200,384]";  // another shape: no figure, however alike the text
  attach_framework_figures(figures, operators);

  ASSERT_EQ(operators[0].framework.size(), 2u);
  EXPECT_EQ(operators[0].framework[0].mode, kTorchCompile);
  EXPECT_GT(operators[0].framework[0].us, 0);
  EXPECT_EQ(operators[0].framework[1].mode, kEagerGraph);
  ASSERT_EQ(operators[1].framework.size(), 2u);
  EXPECT_NE(operators[1].framework[0].us, operators[0].framework[0].us);
  EXPECT_TRUE(operators[2].framework.empty());

  EXPECT_NO_THROW(require_same_device(figures, "NVIDIA H200"));
}

TEST(FrameworkFigures, FiguresFromAnotherGpuAreRefused) {
  const FrameworkFigures figures = load_framework_figures(kRecorded);
  try {
    require_same_device(figures, "NVIDIA H100 80GB HBM3");
    FAIL() << "H200 figures were accepted on an H100";
  } catch (const InputError& error) {
    const std::string text = error.diagnostics().front().str();
    EXPECT_NE(text.find("pangu-framework-h200.json"), std::string::npos) << text;
    EXPECT_NE(text.find("measured on NVIDIA H200, not on this NVIDIA H100 80GB HBM3"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("scripts/pangu-framework-bench.py"), std::string::npos) << text;
  }
}

class BadFrameworkFigures : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("lc_framework_figures_" + std::to_string(::getpid()));
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  // The one diagnostic loading `text` throws, as one line.
  std::string failure(const std::string& text) {
    const fs::path path = folder_ / "figures.json";
    std::ofstream(path) << text;
    try {
      load_framework_figures(path.string());
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
  fs::path folder_;
};

TEST_F(BadFrameworkFigures, EachIsAClearErrorNamingTheFile) {
  const std::string op =
      R"({"operator": "LayerNorm", "shape": [1, 33120, 384], "compile": {"median_us": 17.8}})";
  EXPECT_NE(failure("{\"device\": \"NVIDIA H200\",\n \"operators\": [}").find("JSON 2:"),
            std::string::npos);
  const std::string no_device = failure(R"({"operators": [)" + op + "]}");
  EXPECT_NE(no_device.find("names no device"), std::string::npos) << no_device;
  EXPECT_NE(failure(R"({"device": "", "operators": []})").find("names no device"),
            std::string::npos);
  EXPECT_NE(failure(R"({"device": "NVIDIA H200"})").find("not a framework figures file"),
            std::string::npos);
  EXPECT_NE(failure(R"({"device": "NVIDIA H200", "operators": [{"operator": "LayerNorm"}]})")
                .find("not a framework figures file"),
            std::string::npos);
  EXPECT_NE(failure(R"({"device": "NVIDIA H200", "operators": [{"operator": "LayerNorm",
      "shape": [1, 0, 384], "compile": {"median_us": 17.8}}]})")
                .find("not a framework figures file"),
            std::string::npos);
  EXPECT_NE(failure(R"({"device": "NVIDIA H200", "operators": [{"operator": "LayerNorm",
      "shape": [1, 33120, 384], "compile": {"median_us": -1}}]})")
                .find("compile median_us is not a positive time"),
            std::string::npos);
  EXPECT_NE(failure(R"({"device": "NVIDIA H200", "operators": [{"operator": "LayerNorm",
      "shape": [1, 33120, 384], "compile": {"median_us": "fast"}}]})")
                .find("not a framework figures file"),
            std::string::npos);
}

TEST(FrameworkFigures, AMissingFileIsAClearError) {
  EXPECT_THROW(load_framework_figures("/nonexistent/figures.json"), InputError);
}

TEST(FrameworkFigures, AFailedCompileLeavesOnlyTheEagerFigure) {
  const fs::path path =
      fs::temp_directory_path() / ("lc_framework_figures_ok_" + std::to_string(::getpid()));
  std::ofstream(path) << R"({"device": "NVIDIA H200", "operators": [{"operator": "LayerNorm",
      "shape": [1, 33120, 384], "compile": {"mode": null, "error": "no compiler"},
      "eager_graph": {"median_us": 54.1}}]})";
  const FrameworkFigures figures = load_framework_figures(path.string());
  fs::remove(path);
  ASSERT_EQ(figures.operators.size(), 1u);
  ASSERT_EQ(figures.operators[0].figures.size(), 1u);
  EXPECT_EQ(figures.operators[0].figures[0].mode, kEagerGraph);
  EXPECT_DOUBLE_EQ(figures.operators[0].figures[0].us, 54.1);
}

}  // namespace
}  // namespace layoutcheck::pangu
