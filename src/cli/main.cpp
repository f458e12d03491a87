// layoutcheck: layout contracts, one-hot probes and fair timing for ported GPU kernels.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cases/builtin_cases.h"
#include "commands.h"
#include "common.h"
#if defined(LAYOUTCHECK_HAVE_GPU)
#include "cases/builtin_gpu_cases.h"
#endif
#include "layoutcheck/contract/diagnostic.h"

namespace {

// Whether the arguments, as given, ask for JSON (--json, --format json): where parsing stopped at
// an earlier bad option, CLI11 has not read the flag.
bool asks_for_json(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json" || arg == "--format=json" ||
        (arg == "--format" && i + 1 < argc && std::string(argv[i + 1]) == "json"))
      return true;
  }
  return false;
}

int parse_and_run(int argc, char** argv) {
  using namespace layoutcheck::cli;
  layoutcheck::register_builtin_cases();
#if defined(LAYOUTCHECK_HAVE_GPU)
  layoutcheck::register_builtin_gpu_cases();
#endif
  CLI::App app{"layoutcheck: what every element of a buffer means, and what a kernel really reads"};
  app.set_version_flag("--version", std::string("layoutcheck ") + LAYOUTCHECK_VERSION);
  app.require_subcommand(1);

  std::vector<Command> commands = {
      setup_lint_command(app),    setup_diff_command(app),    setup_explain_command(app),
      setup_render_command(app),  setup_probe_command(app),   setup_run_command(app),
      setup_bench_command(app),   setup_codegen_command(app), setup_cases_command(app),
      setup_profile_command(app), setup_gate_command(app),    setup_map_command(app),
  };

  // CLI11 answers an unknown subcommand only with "A subcommand is required"; name it instead.
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(),
                   [&](const Command& command) { return command.app->get_name() == argv[1]; })) {
    std::cerr << "layoutcheck: unknown subcommand '" << argv[1]
              << "' (run 'layoutcheck --help' for the list)\n";
    return kInputError;
  }

  // Likewise an unknown option before any subcommand ("--bogus"), which CLI11 reports as a
  // missing subcommand.
  if (argc > 1 && argv[1][0] == '-') {
    const std::string option = argv[1];
    if (option != "-h" && option != "--help" && option != "--version") {
      std::cerr << "layoutcheck: unknown option '" << option
                << "' before the subcommand (run 'layoutcheck --help' for the list)\n";
      return kInputError;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);  // prints help, version or the usage error
    if (code == 0) return kClean;
    // A usage error under --json is JSON on stdout too, like any input error.
    if (asks_for_json(argc, argv))
      print_errors_json({layoutcheck::Diagnostic{{"<command line>"},
                                                 layoutcheck::Severity::error, "usage",
                                                 error.what(), "run with --help"}});
    return kInputError;
  }

  for (const Command& command : commands) {
    if (!command.app->parsed()) continue;
    try {
      return command.run();
    } catch (const layoutcheck::InputError& error) {
      for (const auto& diagnostic : error.diagnostics()) std::cerr << diagnostic.str() << "\n";
      if (command.wants_json()) print_errors_json(error.diagnostics());
      return kInputError;
    } catch (const std::exception& error) {
      // Every input is capped, but a cap raised by the user (--max-elements) can still ask for
      // more memory than the machine has.
      const std::string message =
          dynamic_cast<const std::bad_alloc*>(&error) != nullptr
              ? "out of memory: the input needs more than this machine can allocate (a cap "
                "raised with --max-elements? the default is 2^26 elements)"
              : error.what();
      std::cerr << "layoutcheck " << command.app->get_name() << ": error: " << message << "\n";
      if (command.wants_json())
        print_errors_json({layoutcheck::Diagnostic{{}, layoutcheck::Severity::error, "input",
                                                   message, ""}});
      return kInputError;
    }
  }
  return kInputError;
}

}  // namespace

// Every path out, help and usage errors included, ends with the check that stdout was written.
int main(int argc, char** argv) {
  return layoutcheck::cli::finish_standard_output(parse_and_run(argc, argv));
}
