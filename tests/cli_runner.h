// The built command line (LAYOUTCHECK_CLI) run as a child process for tests: its exit code and
// everything it printed.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace layoutcheck::testing {

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

inline std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A shell command line, its exit code and what it printed on standard output.
inline CliResult run_shell(const std::string& command) {
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t read = 0;
  while ((read = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), read);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

// `layoutcheck ARGS...`, each argument quoted for the shell; with stdout_to, standard output goes
// to that file instead and only stderr is captured.
inline CliResult run_cli(const std::vector<std::string>& args, const std::string& stdout_to = "") {
  std::string command = shell_quoted(LAYOUTCHECK_CLI);
  for (const std::string& arg : args) command += " " + shell_quoted(arg);
  command += " 2>&1";
  if (!stdout_to.empty()) command += " >" + shell_quoted(stdout_to);
  return run_shell(command);
}

}  // namespace layoutcheck::testing
