// The README's examples are what the tool prints: every `$ layoutcheck …` line of a ```console
// block is run from a folder that sees the repository's contracts and tests, and its output is
// compared with the lines below it. A block that only shows the command (the output is long, or
// Markdown) takes the ```markdown block right after it as its output. A line "…" alone stands for
// lines left out of an abridged output. So an example cannot drift from the code unnoticed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "scratch_folder.h"

namespace {

using layoutcheck::testing::run_shell;
using layoutcheck::testing::shell_quoted;

const std::filesystem::path kRoot = std::filesystem::path(LAYOUTCHECK_TEST_DATA).parent_path();

struct Example {
  int line = 0;         // of the command in README.md
  std::string command;  // continuation lines joined
  std::vector<std::string> expected;
};

struct FencedBlock {
  int first_line = 0;  // the first line inside the fence
  std::string language;
  std::vector<std::string> lines;
};

std::string without_trailing_space(std::string line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return line;
}

std::vector<FencedBlock> fenced_blocks(std::istream& in) {
  std::vector<FencedBlock> blocks;
  std::string line;
  bool inside = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.rfind("```", 0) == 0) {
      if (!inside) blocks.push_back({number + 1, line.substr(3), {}});
      inside = !inside;
    } else if (inside) {
      blocks.back().lines.push_back(without_trailing_space(line));
    }
  }
  return blocks;
}

std::vector<Example> examples_of(const std::vector<FencedBlock>& blocks) {
  std::vector<Example> examples;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (blocks[b].language != "console") continue;
    const std::size_t first = examples.size();
    const std::vector<std::string>& lines = blocks[b].lines;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind("$ ", 0) == 0) {
        Example example{blocks[b].first_line + static_cast<int>(i), lines[i].substr(2), {}};
        while (!example.command.empty() && example.command.back() == '\\' && i + 1 < lines.size()) {
          example.command.pop_back();
          const std::string& next = lines[++i];
          const std::size_t text = next.find_first_not_of(' ');
          if (text != std::string::npos) example.command += next.substr(text);
        }
        examples.push_back(example);
      } else if (examples.size() > first) {
        examples.back().expected.push_back(lines[i]);
      }
    }
    const bool markdown_follows = b + 1 < blocks.size() && blocks[b + 1].language == "markdown";
    if (markdown_follows && examples.size() > first && examples.back().expected.empty())
      examples.back().expected = blocks[b + 1].lines;
  }
  return examples;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  // A probe on a slow machine (a sanitizer build) reports progress every ten seconds.
  const std::regex progress(R"(^\[ *[0-9.]+ s\] .*)");
  for (std::string line; std::getline(in, line);)
    if (!std::regex_match(line, progress)) lines.push_back(without_trailing_space(line));
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Whether `actual` from line a on is `expected` from line e on, a line "…" standing for one or
// more lines.
bool matches(const std::vector<std::string>& expected, std::size_t e,
             const std::vector<std::string>& actual, std::size_t a) {
  if (e == expected.size()) return a == actual.size();
  if (expected[e] == "…") {
    for (std::size_t skip = a + 1; skip <= actual.size(); ++skip)
      if (matches(expected, e + 1, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && expected[e] == actual[a] && matches(expected, e + 1, actual, a + 1);
}

std::string numbered(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "  | " + line + "\n";
  return text;
}

std::vector<Example> readme_examples() {
  std::ifstream readme(kRoot / "README.md");
  return examples_of(fenced_blocks(readme));
}

TEST(ReadmeExamples, ParsingFindsTheCommandsAndTheirOutputs) {
  std::istringstream text(
      "```console\n$ layoutcheck lint a.yaml \\\n    b.yaml\nok\n…\n$ echo hi\nhi\n```\n"
      "```console\n$ layoutcheck diff a b --format md\n```\n\n```markdown\n# report\n```\n");
  const std::vector<Example> examples = examples_of(fenced_blocks(text));
  ASSERT_EQ(examples.size(), 3u);
  EXPECT_EQ(examples[0].command, "layoutcheck lint a.yaml b.yaml");
  EXPECT_EQ(examples[0].line, 2);
  EXPECT_EQ(examples[0].expected, (std::vector<std::string>{"ok", "…"}));
  EXPECT_EQ(examples[1].command, "echo hi");
  EXPECT_EQ(examples[2].expected, (std::vector<std::string>{"# report"}));
}

TEST(ReadmeExamples, AnEllipsisStandsForLinesLeftOut) {
  const std::vector<std::string> abridged{"head", "…", "tail"};
  EXPECT_TRUE(matches(abridged, 0, {"head", "a", "b", "tail"}, 0));
  EXPECT_FALSE(matches(abridged, 0, {"head", "tail"}, 0));
  EXPECT_FALSE(matches(abridged, 0, {"head", "a", "tail", "more"}, 0));
  EXPECT_FALSE(matches({"head", "tail"}, 0, {"head", "tail", "more"}, 0));
}

std::vector<Example> layoutcheck_examples() {
  std::vector<Example> examples;
  for (const Example& example : readme_examples())
    if (example.command.rfind("layoutcheck ", 0) == 0) examples.push_back(example);  // not pytest
  return examples;
}

// One test for them all, each example named by its line: README.md is read when the test runs,
// so an edit of it can never leave a stale list of tests behind.
TEST(ReadmeExamples, EachCommandPrintsWhatTheReadmeShows) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the README's examples are compared in the Release build (the cpu stage); under "
                  "AddressSanitizer the GDN CPU probe among them alone takes four minutes";
#endif
  const std::vector<Example> examples = layoutcheck_examples();
  EXPECT_GE(examples.size(), 12u) << "README.md's console examples were not found";
  for (const Example& example : examples) {
    SCOPED_TRACE("README.md:" + std::to_string(example.line) + ": $ " + example.command);
    layoutcheck::testing::ScratchFolder folder("layoutcheck_readme");
    for (const char* shared : {"contracts", "tests"})
      std::filesystem::create_directory_symlink(kRoot / shared, folder / shared);
    // Grouped, so that what the first of "layoutcheck …; echo $?" writes on stderr is shown too.
    const std::string command = "cd " + shell_quoted(folder.path().string()) + " && { " +
                                shell_quoted(LAYOUTCHECK_CLI) +
                                example.command.substr(std::string("layoutcheck").size()) +
                                "; } 2>&1";
    const std::vector<std::string> actual = lines_of(run_shell(command).output);
    EXPECT_TRUE(matches(example.expected, 0, actual, 0))
        << "the README shows:\n" << numbered(example.expected) << "the command prints:\n"
        << numbered(actual);
  }
}

}  // namespace
