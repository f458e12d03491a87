#include "layoutcheck/probe/compute_sanitizer.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <thread>

#include "layoutcheck/contract/read_file.h"

extern char** environ;

namespace layoutcheck {
namespace {

constexpr std::size_t kMaxReports = 8;
constexpr std::size_t kMaxLogBytes = 16 << 20;
constexpr std::string_view kPrefix = "========= ";

bool executable(const std::string& path) {
  return ::access(path.c_str(), X_OK) == 0;
}

std::string trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return "";
  const auto end = text.find_last_not_of(" \t\r");
  return std::string(text.substr(begin, end - begin + 1));
}

// The last few lines of a child's own output, for a failure message.
std::string tail_of(const std::string& text, std::size_t lines) {
  std::size_t at = text.size();
  for (std::size_t seen = 0; at > 0 && seen <= lines; --at)
    if (text[at - 1] == '\n') ++seen;
  return trim(text.substr(at));
}

}  // namespace

std::optional<std::string> find_compute_sanitizer() {
  if (const char* chosen = std::getenv("LAYOUTCHECK_COMPUTE_SANITIZER"); chosen && *chosen)
    return executable(chosen) ? std::optional<std::string>(chosen) : std::nullopt;
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      const std::string folder(rest.substr(0, colon));
      if (!folder.empty() && executable(folder + "/compute-sanitizer"))
        return folder + "/compute-sanitizer";
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  const std::string fallback = "/usr/local/cuda/bin/compute-sanitizer";
  return executable(fallback) ? std::optional<std::string>(fallback) : std::nullopt;
}

SanitizerRun parse_sanitizer_log(std::string_view tool, std::string_view log) {
  SanitizerRun run;
  run.tool = std::string(tool);
  static const std::regex error_summary(R"(ERROR SUMMARY: (\d+) errors?)");
  static const std::regex race_summary(
      R"(RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\))");
  std::map<std::string, std::int64_t> counted;
  std::vector<std::string> order;
  std::string* last = nullptr;  // the report whose location lines follow
  while (!log.empty()) {
    const auto newline = log.find('\n');
    const std::string_view line = log.substr(0, newline);
    log.remove_prefix(newline == std::string_view::npos ? log.size() : newline + 1);
    if (line.substr(0, kPrefix.size()) != kPrefix) continue;
    const std::string_view body = line.substr(kPrefix.size());
    const std::string text = trim(body);
    std::smatch match;
    if (std::regex_search(text, match, race_summary)) {
      run.completed = true;
      run.errors = std::max<std::int64_t>(run.errors, std::stoll(match[2].str()));
      continue;
    }
    if (std::regex_search(text, match, error_summary)) {
      run.completed = true;
      run.errors = std::max<std::int64_t>(run.errors, std::stoll(match[1].str()));
      continue;
    }
    if (text.empty() || text.rfind("COMPUTE-SANITIZER", 0) == 0 ||
        text.rfind("Saved host backtrace", 0) == 0 || text.rfind("Host Frame", 0) == 0)
      continue;
    const bool indented = !body.empty() && (body.front() == ' ' || body.front() == '\t');
    if (!indented) {
      // A new report: "Invalid __global__ read of size 4 bytes", "Error: Race reported between
      // Write access at k+0x90 in f.cu:12", "Program hit cudaErrorLaunchFailure ...".
      order.push_back(text);
      last = &order.back();
    } else if (last != nullptr && text.rfind("at ", 0) == 0 &&
               last->find(" at ") == std::string::npos) {
      *last += " " + text;  // where: "at rope_port+0x2b0 in port.hip:41"
    } else if (last != nullptr && text.rfind("and ", 0) == 0 &&
               last->find("Race reported") != std::string::npos) {
      *last += " " + text;  // the race's other access
    }
  }
  for (const std::string& report : order) ++counted[report];
  for (const std::string& report : order) {
    const auto found = counted.find(report);
    if (found == counted.end()) continue;
    if (run.reports.size() < kMaxReports)
      run.reports.push_back(found->second > 1 ? report + " (" + std::to_string(found->second) + "x)"
                                              : report);
    counted.erase(found);
  }
  if (!run.completed) run.failure = "its log has no summary line";
  return run;
}

SanitizerRun run_under_sanitizer(const std::string& sanitizer, const std::string& tool,
                                 const std::vector<std::string>& command, int timeout_seconds) {
  SanitizerRun failed;
  failed.tool = tool;
  char folder_template[] = "/tmp/layoutcheck-sanitize-XXXXXX";
  if (::mkdtemp(folder_template) == nullptr) {
    failed.failure = "no temporary folder for its log";
    return failed;
  }
  const std::filesystem::path folder = folder_template;
  const std::string log_path = (folder / "sanitizer.log").string();
  const std::string output_path = (folder / "output.txt").string();
  std::vector<std::string> argv = {sanitizer,    "--tool",           tool,
                                   "--log-file", log_path,           "--print-limit",
                                   "64",         "--error-exitcode", "86"};
  argv.insert(argv.end(), command.begin(), command.end());
  std::vector<char*> args;
  for (std::string& arg : argv) args.push_back(arg.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // Its own process group, so that a timeout stops the tool and the port it runs together.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t child = -1;
  const int spawned =
      posix_spawn(&child, sanitizer.c_str(), &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  const auto clean_up = [&folder] {
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
  };
  if (spawned != 0) {
    failed.failure = sanitizer + " could not be started";
    clean_up();
    return failed;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  int status = 0;
  bool finished = false;
  while (!finished) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) {
      finished = true;
    } else if (done < 0) {
      break;
    } else if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-child, SIGKILL);
      ::waitpid(child, &status, 0);
      failed.failure = "it did not finish in " + std::to_string(timeout_seconds) + " s";
      clean_up();
      return failed;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  const std::optional<std::string> log = read_text_file(log_path);
  const std::string output = read_text_file(output_path).value_or("");
  clean_up();
  SanitizerRun run = parse_sanitizer_log(
      tool, log ? std::string_view(*log).substr(0, std::min(log->size(), kMaxLogBytes))
                : std::string_view());
  const int code = finished && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  // The launch itself must have worked: a child that failed for another reason (no GPU, a
  // compile error) and reported nothing tells nothing about memory or races. (A kernel memcheck
  // stops fails its launch too: its reports stand.)
  if (run.completed && run.errors == 0 && code != 0 && code != 86) {
    run.completed = false;
    run.failure =
        "the port's launch failed (exit " + std::to_string(code) + "): " + tail_of(output, 3);
  } else if (!run.completed) {
    run.failure = "the port's launch under it " +
                  (code < 0 ? std::string("was killed") : "exited " + std::to_string(code)) +
                  " without the tool's summary: " + tail_of(output, 3);
  }
  return run;
}

void add_sanitizer_results(const std::vector<SanitizerRun>& runs,
                           std::vector<ProbeFinding>& findings,
                           std::vector<std::string>& not_verified) {
  for (const SanitizerRun& run : runs) {
    if (!run.completed) {
      not_verified.push_back(run.tool + " (compute-sanitizer): " + run.failure);
      continue;
    }
    if (run.errors == 0) continue;
    std::string message = std::to_string(run.errors) + (run.errors == 1 ? " error" : " errors");
    for (std::size_t i = 0; i < run.reports.size(); ++i)
      message += (i == 0 ? ": " : "; ") + run.reports[i];
    findings.push_back({run.tool, "", std::move(message)});
  }
}

}  // namespace layoutcheck
