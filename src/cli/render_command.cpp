// PLACEHOLDER: replaced by the real 'render' subcommand.
#include <iostream>

#include "commands.h"
#include "common.h"

namespace layoutcheck::cli {

Command setup_render_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("render", "(not built yet)");
  return {app, [] {
            std::cerr << "layoutcheck render: not built yet\n";
            return kInputError;
          }};
}

}  // namespace layoutcheck::cli
