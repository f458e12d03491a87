// The corpus of bad contracts in tests/bad_contracts. Each file states what lint must say about
// it in its first lines:
//   # set: HV=10                 (optional, --set for this file; several separated by spaces)
//   # max-elements: 1000         (optional, --max-elements)
//   # errors: 1                  (optional: exactly this many errors, so none is a knock-on one)
//   # expect: FILE:LINE:COL: error[RULE]: PHRASE   or   # expect: <command line>: error[RULE]:
//   PHRASE
// and every expectation must match one diagnostic exactly in location, severity and rule, with
// PHRASE a part of its message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/expression.h"

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;

struct Expectation {
  std::string location;       // "overlap.yaml:14:9" or "<command line>"
  std::string severity_rule;  // "error[overlap]"
  std::string phrase;
};

struct Case {
  fs::path path;
  LoadOptions options;
  std::vector<Expectation> expectations;
  std::optional<std::size_t> errors;
};

Case read_case(const fs::path& path) {
  Case c{path};
  std::ifstream in(path);
  std::string line;
  // A file may begin with a UTF-8 byte order mark, before its first expectation.
  if (in.peek() == 0xEF) in.ignore(3);
  while (std::getline(in, line) && line.rfind("# ", 0) == 0) {
    const auto value = [&](const std::string& key) {
      return line.rfind(key, 0) == 0 ? line.substr(key.size()) : std::string();
    };
    if (std::string sets = value("# set: "); !sets.empty()) {
      std::istringstream words(sets);
      for (std::string word; words >> word;)
        c.options.overrides.push_back(parse_symbol_assignment(word));
    } else if (std::string cap = value("# max-elements: "); !cap.empty()) {
      c.options.element_cap = std::stoll(cap);
    } else if (std::string errors = value("# errors: "); !errors.empty()) {
      c.errors = std::stoul(errors);
    } else if (std::string expect = value("# expect: "); !expect.empty()) {
      // LOCATION: SEVERITY[RULE]: PHRASE; the location may itself contain ':'.
      const std::size_t bracket = expect.find("]: ");
      const std::size_t severity = expect.rfind(": ", expect.rfind('[', bracket));
      if (bracket == std::string::npos || severity == std::string::npos) {
        ADD_FAILURE() << path << ": malformed expectation: " << line;
        continue;
      }
      c.expectations.push_back({expect.substr(0, severity),
                                expect.substr(severity + 2, bracket + 1 - severity - 2),
                                expect.substr(bracket + 3)});
    }
  }
  return c;
}

std::string show(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics) text += "\n  " + d.str();
  return text;
}

TEST(BadContracts, EachReportsItsExpectedDiagnostic) {
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(LAYOUTCHECK_TEST_DATA) / "bad_contracts"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 20u);

  for (const fs::path& file : files) {
    SCOPED_TRACE(file.filename().string());
    const Case c = read_case(file);
    ASSERT_FALSE(c.expectations.empty()) << "no '# expect:' line";
    const std::vector<Diagnostic> diagnostics = lint_file(file.string(), c.options);
    EXPECT_TRUE(has_errors(diagnostics));
    for (const Expectation& expected : c.expectations) {
      const bool found =
          std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
            SourceLocation where = d.where;
            if (where.file != "<command line>")
              where.file = fs::path(where.file).filename().string();
            const std::string severity_rule =
                std::string(d.severity == Severity::error ? "error" : "warning") + "[" + d.rule +
                "]";
            return where.str() == expected.location && severity_rule == expected.severity_rule &&
                   d.message.find(expected.phrase) != std::string::npos;
          });
      EXPECT_TRUE(found) << "expected " << expected.location << ": " << expected.severity_rule
                         << ": ..." << expected.phrase << "...\ngot:" << show(diagnostics);
    }
    if (c.errors)
      EXPECT_EQ(static_cast<std::size_t>(std::count_if(
                    diagnostics.begin(), diagnostics.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::error; })),
                *c.errors)
          << show(diagnostics);
    // Every error is a usable report: a message, a rule, and a location inside the file.
    const std::int64_t lines =
        std::count(std::istreambuf_iterator<char>(std::ifstream(file).rdbuf()), {}, '\n');
    for (const Diagnostic& d : diagnostics) {
      EXPECT_FALSE(d.message.empty());
      EXPECT_FALSE(d.rule.empty());
      if (d.where.file != "<command line>") EXPECT_LE(d.where.line, lines + 1) << d.str();
    }
    // load_contract refuses the same file with the same errors.
    try {
      load_contract(file.string(), c.options);
      ADD_FAILURE() << "load_contract accepted it";
    } catch (const InputError& error) {
      EXPECT_FALSE(error.diagnostics().empty());
    }
  }
}

}  // namespace
}  // namespace layoutcheck
