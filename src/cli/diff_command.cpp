// PLACEHOLDER: replaced by the real 'diff' subcommand.
#include <iostream>

#include "commands.h"
#include "common.h"

namespace layoutcheck::cli {

Command setup_diff_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("diff", "(not built yet)");
  return {app, [] {
            std::cerr << "layoutcheck diff: not built yet\n";
            return kInputError;
          }};
}

}  // namespace layoutcheck::cli
