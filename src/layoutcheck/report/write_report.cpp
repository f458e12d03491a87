#include "layoutcheck/report/write_report.h"

#include <fstream>
#include <stdexcept>

#include "layoutcheck/report/json_report.h"
#include "layoutcheck/report/markdown_report.h"
#include "layoutcheck/report/timing_chart.h"

namespace layoutcheck {

namespace {

std::filesystem::path write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) throw std::runtime_error("cannot write " + path.string());
  return path;
}

}  // namespace

std::vector<std::filesystem::path> write_bench_report(const BenchReport& report,
                                                      const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw std::runtime_error("cannot create " + folder.string() + ": " + error.message());
  // Render all three before writing any, so a rendering error leaves no half-written report.
  const std::string markdown = render_markdown_report(report);
  const std::string json = render_json_report(report);
  const std::string chart = render_timing_chart(report);
  return {write_file(folder / "report.md", markdown), write_file(folder / "report.json", json),
          write_file(folder / "chart.svg", chart)};
}

}  // namespace layoutcheck
