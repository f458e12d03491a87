// The CLI's output against tests/golden/: the regeneration script runs every case of
// tests/golden/cases.txt into a scratch folder, and each file must equal the committed one.
// After an intended change: scripts/regenerate-golden.sh, then review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "layoutcheck/contract/read_file.h"
#include "scratch_folder.h"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  return layoutcheck::read_text_file(path.string()).value_or("");
}

// First differing line, for a readable failure.
std::string first_difference(const std::string& expected, const std::string& actual) {
  std::istringstream a(expected), b(actual);
  std::string left, right;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, left));
    const bool more_b = static_cast<bool>(std::getline(b, right));
    if (!more_a && !more_b) return "(only line endings differ)";
    if (!more_a || !more_b || left != right)
      return "line " + std::to_string(line) + ":\n  golden:  " + (more_a ? left : "<end>") +
             "\n  current: " + (more_b ? right : "<end>");
  }
}

TEST(Golden, CliOutputMatchesTheGoldenFiles) {
  const fs::path golden = fs::path(LAYOUTCHECK_TEST_DATA) / "golden";
  const fs::path script =
      fs::path(LAYOUTCHECK_TEST_DATA).parent_path() / "scripts" / "regenerate-golden.sh";
  ASSERT_TRUE(fs::exists(LAYOUTCHECK_CLI)) << "build the layoutcheck_cli target first";
  const layoutcheck::testing::ScratchFolder scratch("layoutcheck-golden");
  const std::string command = "bash '" + script.string() + "' --cli '" + LAYOUTCHECK_CLI +
                              "' --out '" + scratch.path().string() + "' > /dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::set<std::string> cases;
  for (const auto& entry : fs::directory_iterator(scratch.path())) {
    const std::string name = entry.path().filename().string();
    cases.insert(name);
    SCOPED_TRACE(name);
    ASSERT_TRUE(fs::exists(golden / name)) << "no golden file: run scripts/regenerate-golden.sh";
    const std::string expected = read(golden / name), actual = read(entry.path());
    EXPECT_TRUE(expected == actual) << first_difference(expected, actual);
  }
  EXPECT_GE(cases.size(), 10u);
  for (const auto& entry : fs::directory_iterator(golden))
    if (entry.path().extension() == ".txt" && entry.path().filename() != "cases.txt")
      EXPECT_TRUE(cases.count(entry.path().filename().string()))
          << entry.path() << " has no case in cases.txt: delete it";
}

}  // namespace
