// PLACEHOLDER: replaced by the real 'probe' subcommand.
#include <iostream>

#include "commands.h"
#include "common.h"

namespace layoutcheck::cli {

Command setup_probe_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("probe", "(not built yet)");
  return {app, [] {
            std::cerr << "layoutcheck probe: not built yet\n";
            return kInputError;
          }};
}

}  // namespace layoutcheck::cli
