// PLACEHOLDER: replaced by the real 'lint' subcommand.
#include <iostream>

#include "commands.h"
#include "common.h"

namespace layoutcheck::cli {

Command setup_lint_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("lint", "(not built yet)");
  return {app, [] {
            std::cerr << "layoutcheck lint: not built yet\n";
            return kInputError;
          }};
}

}  // namespace layoutcheck::cli
