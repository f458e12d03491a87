// Helpers shared by the subcommands: --set parsing and exit codes.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck::cli {

enum ExitCode : int { kClean = 0, kFindings = 1, kInputError = 2 };

// Binds "--set NAME=VALUE" (repeatable) to assignments.
void add_set_option(CLI::App* app, std::vector<std::string>& assignments);

// Turns the --set strings into LoadOptions; throws InputError on a malformed assignment.
LoadOptions load_options_from(const std::vector<std::string>& assignments);

}  // namespace layoutcheck::cli
