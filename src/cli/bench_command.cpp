// PLACEHOLDER: replaced by the real 'bench' subcommand.
#include <iostream>

#include "commands.h"
#include "common.h"

namespace layoutcheck::cli {

Command setup_bench_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("bench", "(not built yet)");
  return {app, [] {
            std::cerr << "layoutcheck bench: not built yet\n";
            return kInputError;
          }};
}

}  // namespace layoutcheck::cli
