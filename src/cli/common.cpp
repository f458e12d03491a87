#include "common.h"

#include "layoutcheck/contract/expression.h"

namespace layoutcheck::cli {

void add_set_option(CLI::App* app, std::vector<std::string>& assignments) {
  app->add_option("--set", assignments,
                  "Override a symbol's default, e.g. --set H=16 --set HV=32 (repeatable)")
      ->type_name("NAME=VALUE");
}

LoadOptions load_options_from(const std::vector<std::string>& assignments) {
  LoadOptions options;
  for (const std::string& text : assignments) options.overrides.push_back(parse_symbol_assignment(text));
  return options;
}

}  // namespace layoutcheck::cli
