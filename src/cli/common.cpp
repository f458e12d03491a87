#include "common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "layoutcheck/contract/expression.h"

namespace layoutcheck::cli {

void add_set_option(CLI::App* app, std::vector<std::string>& assignments) {
  app->add_option("--set", assignments,
                  "Override a symbol's default, e.g. --set H=16 --set HV=32 (repeatable)")
      ->type_name("NAME=VALUE");
}

void add_max_elements_option(CLI::App* app, std::int64_t& max_elements) {
  app->add_option("--max-elements", max_elements,
                  "Cap on logical elements and row size per contract (default 2^26)")
      ->check(CLI::PositiveNumber)
      ->type_name("N");
}

LoadOptions load_options_from(const std::vector<std::string>& assignments,
                              std::int64_t max_elements) {
  LoadOptions options;
  for (const std::string& text : assignments)
    options.overrides.push_back(parse_symbol_assignment(text));
  options.element_cap = max_elements;
  return options;
}

int finish_standard_output(int exit_code) {
  // std::cout writes through stdout (synced with stdio): an error shows on either, at the latest
  // when the last buffered bytes are flushed here.
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && std::cout && !std::ferror(stdout)) return exit_code;
  std::cerr << "layoutcheck: cannot write to standard output: "
            << std::strerror(error != 0 ? error : EIO) << "\n";
  return kInputError;
}

}  // namespace layoutcheck::cli
