// PLACEHOLDER: replaced by the real 'run' subcommand.
#include <iostream>

#include "commands.h"
#include "common.h"

namespace layoutcheck::cli {

Command setup_run_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("run", "(not built yet)");
  return {app, [] {
            std::cerr << "layoutcheck run: not built yet\n";
            return kInputError;
          }};
}

}  // namespace layoutcheck::cli
