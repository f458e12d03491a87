// layoutcheck diff PRODUCER CONSUMER: what a kernel built for CONSUMER's layout misreads when fed
// buffers laid out by PRODUCER. Exit 0 when nothing is misread, 1 when something is (an element,
// or rows stepped by another stride).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/report_json.h"
#include "layoutcheck/render/report_text.h"

namespace layoutcheck::cli {
namespace {

struct DiffOptions {
  std::string producer;
  std::string consumer;
  std::vector<std::string> assignments;
  bool json = false;
  std::optional<std::int64_t> max_runs;
  std::int64_t max_elements = kDefaultElementCap;
};

int run_diff(const DiffOptions& options) {
  const LoadOptions load = load_options_from(options.assignments, options.max_elements);
  const Contract producer = load_contract(options.producer, load);
  const Contract consumer = load_contract(options.consumer, load);
  const MisreadReport report = diff_contracts(producer, consumer);
  auto runs = [&](std::size_t fallback) {
    return options.max_runs ? static_cast<std::size_t>(*options.max_runs) : fallback;
  };
  if (options.json)
    std::cout << report_to_json(report, runs(kAllRuns)).dump() << "\n";
  else
    std::cout << report_to_text(report, runs(kDefaultTextRuns));
  return report.has_findings() ? kFindings : kClean;
}

}  // namespace

Command setup_diff_command(CLI::App& parent) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* app = parent.add_subcommand(
      "diff",
      "What a kernel built for CONSUMER's layout misreads when fed buffers laid out by PRODUCER. "
      "Exit 0: nothing misread, 1: misread elements or rows stepped differently, 2: usage or input "
      "error");
  app->add_option("PRODUCER", options->producer, "Contract of the buffer as written")
      ->required()
      ->check(CLI::ExistingFile);
  app->add_option("CONSUMER", options->consumer, "Contract the reading kernel was built for")
      ->required()
      ->check(CLI::ExistingFile);
  add_set_option(app, options->assignments);
  add_max_elements_option(app, options->max_elements);
  app->add_flag("--json", options->json, "Print the report as JSON");
  app->add_option("--max-runs", options->max_runs,
                  "Misread runs to list (text default 8, JSON default all)")
      ->check(integer_at_least(0));
  return {app, [options] { return run_diff(*options); }};
}

}  // namespace layoutcheck::cli
