// `run --sanitize`: NVIDIA's compute-sanitizer watching one launch of a port. The port is run in
// a child process (this program again, asked to launch once on the model's random inputs) under
// memcheck, then under racecheck; what each reports becomes findings of the port's verdict, and a
// tool that could not run, or did not finish, is said to be unverified, never taken as a pass.
// Memcheck sees a read past a buffer that the guard zones cannot (they only catch writes);
// racecheck sees shared-memory hazards that two launches agreeing do not rule out.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/cases/case.h"  // ProbeFinding

namespace layoutcheck {

struct SanitizerRun {
  std::string tool;                  // "memcheck", "racecheck"
  bool completed = false;            // the tool ran to its summary line
  std::string failure;               // why not, when !completed
  std::int64_t errors = 0;           // as its summary counts them
  std::vector<std::string> reports;  // the first distinct reports, one line each ("... (3x)")
};

// LAYOUTCHECK_COMPUTE_SANITIZER, else compute-sanitizer on PATH, else CUDA's default folder.
std::optional<std::string> find_compute_sanitizer();

// What a tool's log says (the lines it prefixes with "========= ").
SanitizerRun parse_sanitizer_log(std::string_view tool, std::string_view log);

// `command` (argv, the program first) under `sanitizer --tool TOOL`, stopped after
// timeout_seconds.
SanitizerRun run_under_sanitizer(const std::string& sanitizer, const std::string& tool,
                                 const std::vector<std::string>& command, int timeout_seconds);

// Findings (kind = the tool, buffer empty: the port's) and not-verified lines of the runs.
void add_sanitizer_results(const std::vector<SanitizerRun>& runs,
                           std::vector<ProbeFinding>& findings,
                           std::vector<std::string>& not_verified);

}  // namespace layoutcheck
