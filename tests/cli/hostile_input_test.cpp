// The hostile inputs of tests/hostile/README.md: each a clear error (or, for a large but valid
// contract, a result) in bounded time and memory. The CLI runs as a child process; wait4 gives its
// peak resident memory, a clock its time. Limits are looser than the 1 GB / 10 s budget so that a
// sanitizer build passes too; the figures are printed, and sit far below both.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/profile/profile.h"
#include "layoutcheck/json/json.h"
#include "scratch_folder.h"

namespace layoutcheck {
namespace {

namespace fs = std::filesystem;

constexpr long kMemoryLimitKb = 1L << 20;  // 1 GiB
constexpr double kTimeLimitSeconds = 30;

struct Outcome {
  int exit_code = -1;
  long peak_kb = 0;
  double seconds = 0;
  std::uintmax_t output_bytes = 0;
  std::string output_head;  // the first 4 KiB
};

// Runs the CLI with `arguments`, standard output and error into one file.
Outcome run_cli(const std::vector<std::string>& arguments, const fs::path& output) {
  std::fflush(stdout);  // or the child's copy of the buffer is printed again
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child == 0) {
    std::FILE* out = std::freopen(output.c_str(), "w", stdout);
    if (out == nullptr || dup2(fileno(stdout), 2) < 0) _exit(127);
    std::vector<char*> argv{const_cast<char*>(LAYOUTCHECK_CLI)};
    for (const std::string& argument : arguments)
      argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    execv(LAYOUTCHECK_CLI, argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  Outcome outcome;
  if (wait4(child, &status, 0, &usage) == child && WIFEXITED(status))
    outcome.exit_code = WEXITSTATUS(status);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.peak_kb = usage.ru_maxrss;
  outcome.output_bytes = fs::file_size(output);
  std::ifstream in(output);
  outcome.output_head.resize(4096);
  in.read(outcome.output_head.data(), 4096);
  outcome.output_head.resize(static_cast<std::size_t>(in.gcount()));
  return outcome;
}

class HostileInput : public ::testing::Test {
 protected:
  fs::path file(const std::string& name, const std::string& text) const {
    std::ofstream(folder_ / name, std::ios::binary) << text;
    return folder_ / name;
  }

  // Runs it and checks the exit code and the bounds; the outcome for further checks.
  Outcome expect(const std::string& what, const std::vector<std::string>& arguments,
                 int exit_code) const {
    const Outcome outcome = run_cli(arguments, folder_ / "output.txt");
    std::printf("  %-44s exit %d, %6.2f s, %7ld KB peak, %ju bytes out\n", what.c_str(),
                outcome.exit_code, outcome.seconds, outcome.peak_kb, outcome.output_bytes);
    EXPECT_EQ(outcome.exit_code, exit_code) << what << ":\n" << outcome.output_head;
    EXPECT_LT(outcome.peak_kb, kMemoryLimitKb) << what;
    EXPECT_LT(outcome.seconds, kTimeLimitSeconds) << what;
    EXPECT_LT(outcome.output_bytes, 1u << 20) << what;  // a reviewer reads it
    return outcome;
  }

  static std::string contract_with(const std::string& symbols) {
    return "layoutcheck: 1\nname: hostile\nbuffer: b\ndtype: bf16\nsymbols:\n" + symbols +
           "fields:\n  - name: F\n    dims: [{name: i, size: 4, stride: 1}]\n";
  }

  layoutcheck::testing::ScratchFolder folder_{"lc_hostile"};
};

TEST_F(HostileInput, LargeOrEndlessFilesAreRefusedInBoundedTimeAndMemory) {
  // One flow sequence filling the 16 MiB cap: the node cap must hold while parsing.
  std::string flow = "layoutcheck: 1\nname: flow\nbuffer: b\ndtype: bf16\nrows: [";
  while (flow.size() < (16u << 20) - 16) flow += "1,";
  flow += "1]\n";
  const Outcome parsed = expect("16 MiB flow sequence", {"lint", file("flow.yaml", flow)}, 1);
  EXPECT_NE(parsed.output_head.find("YAML nodes"), std::string::npos) << parsed.output_head;

  expect("lint /dev/zero", {"lint", "/dev/zero"}, 2);
  expect("bench --from /dev/zero", {"bench", "--from", "/dev/zero", "--out", folder_ / "o"}, 2);
  expect("run /dev/zero", {"run", "/dev/zero"}, 2);
  expect("profile /dev/zero", {"profile", "/dev/zero"}, 2);
  // A trace of deeply nested arrays: the JSON reader's depth bound, not the stack.
  expect("profile of a deeply nested trace",
         {"profile", file("nested.json", "{\"traceEvents\": " + std::string(200000, '[') +
                                             std::string(200000, ']') + "}")},
         2);
  const fs::path fifo = folder_ / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const Outcome silent = expect("lint of a FIFO nobody writes", {"lint", fifo}, 2);
  EXPECT_NE(silent.output_head.find("nothing to read"), std::string::npos) << silent.output_head;
}

// Profiles filling the cap (kMaxProfileBytes) with what costs a reader most: each is read in
// one pass, never held as a line or a JSON value per few bytes. The files are written piece by
// piece: a child's peak memory counts its parent's (fork copies the high-water mark), so the test
// itself holds no 64 MiB string.
TEST_F(HostileInput, ProfilesAtTheSizeCapAreReadInBoundedTimeAndMemory) {
  const std::size_t size = kMaxProfileBytes - 64;
  const auto filled = [&](const std::string& name, const std::string& head,
                          const std::string& item, const std::string& tail, auto&& numbered,
                          std::size_t count = SIZE_MAX) {
    std::ofstream out(folder_ / name, std::ios::binary);
    out << head;
    std::size_t written = head.size();
    for (std::size_t i = 0; i < count && written + tail.size() + item.size() + 24 < size; ++i) {
      const std::string piece = numbered(item, i);
      out << piece;
      written += piece.size();
    }
    out << tail;
    return folder_ / name;
  };
  // The same item over and over, a block at a time (the sanitizer build writes slowly by item).
  const auto repeated = [&](const std::string& name, const std::string& head,
                            const std::string& item, const std::string& tail) {
    std::ofstream out(folder_ / name, std::ios::binary);
    out << head;
    const std::size_t items = (size - head.size() - tail.size()) / item.size();
    std::string block;
    for (std::size_t i = 0; i < std::min<std::size_t>(items, 65536); ++i) block += item;
    for (std::size_t left = items; left > 0;) {
      const std::size_t now = std::min(left, block.size() / item.size());
      out.write(block.data(), static_cast<std::streamsize>(now * item.size()));
      left -= now;
    }
    out << tail;
    return folder_ / name;
  };
  expect("profile: 64 MiB of newlines", {"profile", repeated("lines.txt", "", "\n", "")}, 2);
  expect("profile: a dashed line of 16 million columns",
         {"profile", repeated("columns.txt", "", "- ", "\nName\n-\n")}, 2);
  // Rows of one operator are added into one, so each row names another.
  const std::string rule = "---------- ---------- ---------\n";
  const Outcome rows = expect(
      "profile: a table of 262 154 operators",
      {"profile", filled("rows.txt", rule + "Name       # of Calls Self CUDA\n" + rule,
                         " 1          1us\n", rule, [](const std::string& item, std::size_t i) {
                           std::string name = "a" + std::to_string(i);
                           name.resize(10, ' ');
                           return name + item;
                         },
                         kMaxProfiledOperators + 10)},
      2);
  EXPECT_NE(rows.output_head.find("more than 262144 operators"), std::string::npos)
      << rows.output_head;
  const Outcome keys = expect(
      "profile: an object of 6 million keys",
      {"profile", filled("keys.json", "{", "\"k", "\"z\": 0}",
                         [](const std::string& item, std::size_t i) {
                           return item + std::to_string(i) + "\": 0,";
                         })},
      2);
  EXPECT_NE(keys.output_head.find("values: too large a document"), std::string::npos)
      << keys.output_head;
  const Outcome empty =
      expect("profile: a trace of 7 million instant events",
             {"profile", repeated("empty.json", "{\"traceEvents\": [", "{\"ph\":\"i\"}, ",
                                  "{\"ph\":\"i\"}]}")},
             2);
  EXPECT_NE(empty.output_head.find("no device events"), std::string::npos) << empty.output_head;
  // Every event its own operator: as many as a profile may list are read, one more is refused.
  const auto operators = [&](const std::string& name, std::size_t count) {
    return filled(name, "{\"traceEvents\": [",
                  R"({"ph": "X", "cat": "cpu_op", "dur": 1, "args": {"External id": )",
                  R"({"ph": "X", "cat": "kernel", "name": "k", "dur": 1}]})",
                  [](const std::string& item, std::size_t i) {
                    const std::string n = std::to_string(i);
                    return item + n + "}, \"name\": \"op" + n + "\"}, ";
                  },
                  count);
  };
  expect("profile: a trace of 262 143 operators and a kernel",
         {"profile", operators("most.json", kMaxProfiledOperators - 1)}, 0);
  const Outcome most = expect("profile: a trace of 800 000 operators",
                              {"profile", operators("operators.json", SIZE_MAX)}, 2);
  EXPECT_NE(most.output_head.find("more than 262144 operators"), std::string::npos)
      << most.output_head;
}

TEST_F(HostileInput, SymbolGraphsResolveInLinearTimeAndCyclesPrintAFewNames) {
  std::string cycle;
  for (int i = 0; i < 3000; ++i)
    cycle += "  S" + std::to_string(i) + ": S" + std::to_string((i + 1) % 3000) + " + 1\n";
  const Outcome cyclic =
      expect("a cycle of 3000 symbols", {"lint", file("cycle.yaml", contract_with(cycle))}, 1);
  EXPECT_NE(cyclic.output_head.find("and 2992 more are defined from each other"), std::string::npos)
      << cyclic.output_head;

  std::string reverse;
  for (int i = 0; i < 50000; ++i)
    reverse += "  S" + std::to_string(i) + ": " +
               (i + 1 < 50000 ? "S" + std::to_string(i + 1) + " + 1" : "1") + "\n";
  expect("50 000 symbols listed backwards", {"lint", file("reverse.yaml", contract_with(reverse))},
         0);
}

TEST_F(HostileInput, NonsenseNumbersAndEscapesAreRefused) {
  const std::string contracts = LAYOUTCHECK_CONTRACTS_DIR;
  const Outcome nan =
      expect("render --width nan",
             {"render", contracts + "/gdn/qwen3_5.ba.yaml", "--width", "nan", "-o", "-"}, 2);
  EXPECT_EQ(nan.output_head.find("<svg"), std::string::npos);

  const Outcome escape =
      expect("an escape sequence in a name",
             {"lint", std::string(LAYOUTCHECK_TEST_DATA) + "/hostile/escape_in_name.yaml"}, 1);
  EXPECT_NE(escape.output_head.find("control character 0x1B"), std::string::npos);
  EXPECT_EQ(escape.output_head.find('\x1b'), std::string::npos) << "the escape reached the output";

  // A recorded report whose samples say 0.001 µs per layer: thousands of times the copy bandwidth.
  const std::optional<std::string> recorded = read_text_file(
      std::string(LAYOUTCHECK_TEST_DATA) + "/report/recorded/bench-h200/report.json");
  ASSERT_TRUE(recorded);
  std::string doctored = *recorded;
  const std::string key = "\"samples\": [";
  const std::size_t samples = doctored.find(key, doctored.find("\"per_layer_us\""));
  ASSERT_NE(samples, std::string::npos);
  const std::size_t begin = samples + key.size(), end = doctored.find(']', begin);
  std::string fast;
  for (std::size_t i = begin; i < end; ++i)
    if (doctored[i] == ',') fast += "0.001, ";
  doctored.replace(begin, end - begin, fast + "0.001");
  const Outcome physics =
      expect("bench --from: a 0.001 µs sample",
             {"bench", "--from", file("report.json", doctored), "--out", folder_ / "o"}, 2);
  EXPECT_NE(physics.output_head.find("not a measurement"), std::string::npos)
      << physics.output_head;

  // A recorded report listing 1.5 million batches: each checked against the others in a set.
  std::string batches = *recorded;
  const std::size_t listed = batches.find("\"batches\": [1, 8, 64, 256]");
  ASSERT_NE(listed, std::string::npos);
  std::string more;
  for (int batch = 100000; batch < 1600000; ++batch) more += ", " + std::to_string(batch);
  batches.insert(listed + std::string("\"batches\": [1, 8, 64, 256").size(), more);
  expect("bench --from: 1.5 million batches",
         {"bench", "--from", file("batches.json", batches), "--out", folder_ / "o"}, 2);
}

}  // namespace
}  // namespace layoutcheck
