// PLACEHOLDER: replaced by the real 'explain' subcommand.
#include <iostream>

#include "commands.h"
#include "common.h"

namespace layoutcheck::cli {

Command setup_explain_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("explain", "(not built yet)");
  return {app, [] {
            std::cerr << "layoutcheck explain: not built yet\n";
            return kInputError;
          }};
}

}  // namespace layoutcheck::cli
