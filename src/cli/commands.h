// The subcommands. Each lives in its own <name>_command.cpp: an options struct, a setup function
// that binds flags on its CLI11 subcommand, and a run function that does the work and returns the
// exit code (0 clean, 1 findings, 2 usage or input error; gate also 3, incomplete).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace layoutcheck::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
  // True when the command was asked for JSON: an input error is then also printed on standard
  // output as JSON ({"errors": [...]}), so a tool reading it never gets plain text.
  std::function<bool()> wants_json = [] { return false; };
};

Command setup_lint_command(CLI::App& parent);
Command setup_diff_command(CLI::App& parent);
Command setup_explain_command(CLI::App& parent);
Command setup_render_command(CLI::App& parent);
Command setup_probe_command(CLI::App& parent);
Command setup_run_command(CLI::App& parent);
Command setup_bench_command(CLI::App& parent);
Command setup_codegen_command(CLI::App& parent);
Command setup_cases_command(CLI::App& parent);
Command setup_profile_command(CLI::App& parent);
Command setup_gate_command(CLI::App& parent);
Command setup_map_command(CLI::App& parent);

}  // namespace layoutcheck::cli
