// layoutcheck explain FILE (--offset N | --element 'V[7,8]'): which element an offset holds, or
// where an element lives, with the mode arithmetic shown.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/render/explain.h"

namespace layoutcheck::cli {
namespace {

struct ExplainOptions {
  std::string file;
  std::optional<std::int64_t> offset;
  std::optional<std::string> element;
  std::vector<std::string> assignments;
  bool json = false;
  std::int64_t max_elements = kDefaultElementCap;
};

int run_explain(const ExplainOptions& options) {
  const Contract contract = load_contract_argument(
      options.file, load_options_from(options.assignments, options.max_elements));
  const Explainer explainer(contract);
  const Explanation explanation = options.offset ? explainer.at_offset(*options.offset)
                                                 : explainer.at_element(*options.element);
  if (options.json)
    std::cout << explanation_to_json(explanation).dump() << "\n";
  else
    std::cout << explanation_to_text(explanation);
  return kClean;
}

}  // namespace

Command setup_explain_command(CLI::App& parent) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* app = parent.add_subcommand(
      "explain", "Offset -> element, or element -> offset, with the layout arithmetic shown");
  app->add_option("FILE", options->file, "Contract (- reads it from standard input)")
      ->required()
      ->type_name("FILE");
  CLI::Option* offset =
      app->add_option("--offset", options->offset, "Physical offset within one row (elements)")
          ->check(whole_number());
  CLI::Option* element =
      app->add_option("--element", options->element, "Logical element, e.g. 'V[7,8]'");
  offset->excludes(element);
  element->excludes(offset);
  add_set_option(app, options->assignments);
  add_max_elements_option(app, options->max_elements);
  app->add_flag("--json", options->json, "Print the explanation as JSON");
  app->callback([offset, element] {
    if (offset->count() + element->count() != 1)
      throw CLI::RequiredError("exactly one of --offset or --element");
  });
  return {app, [options] { return run_explain(*options); }, [options] { return options->json; }};
}

}  // namespace layoutcheck::cli
