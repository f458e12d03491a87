// layoutcheck render FILE [OTHER] -o OUT.svg: one row coloured by field and labelled by head; with
// OTHER, FILE is the producer and OTHER the consumer, and the misread runs are marked. A grid
// contract (one that gathers a token grid) is drawn as one level of its grid, --level N (0).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/grid_svg.h"
#include "layoutcheck/render/svg.h"

namespace layoutcheck::cli {
namespace {

struct RenderOptions {
  std::string file;
  std::string other;
  std::string output;
  std::vector<std::string> assignments;
  double width = 1400;
  std::optional<std::int64_t> level;
  std::int64_t max_elements = kDefaultElementCap;
};

int run_render(const RenderOptions& options) {
  const LoadOptions load = load_options_from(options.assignments, options.max_elements);
  const Contract first = load_contract_argument(options.file, load);
  const SvgOptions svg{options.width};
  std::string picture;
  if (options.level && !first.gather)
    throw_usage_error(
        "--level draws one level of a grid, and " + first.name + " declares no gather",
        "drop --level to draw the row");
  if (options.level && !options.other.empty())
    throw_usage_error("--level draws one contract's grid, not a comparison of two",
                      "drop OTHER or --level");
  if (options.other.empty() && (options.level || is_grid_contract(first))) {
    picture = render_grid_svg(first, options.level.value_or(0), svg);
  } else if (options.other.empty()) {
    picture = render_row_svg(first, svg);
  } else {
    const Contract second = load_contract_argument(options.other, load);
    picture = render_diff_svg(first, second, diff_contracts(first, second), svg);
  }
  if (options.output == "-") {
    std::cout << picture;
    return kClean;
  }
  write_output_file(options.output, picture);
  std::cout << "wrote " << options.output << "\n";
  return kClean;
}

}  // namespace

Command setup_render_command(CLI::App& parent) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* app = parent.add_subcommand(
      "render",
      "Draw one row of FILE as SVG; with OTHER, FILE (producer) above OTHER (consumer) "
      "and the misread runs marked; a contract gathering a token grid is drawn as one level of "
      "the grid, its windows and padding");
  app->add_option("FILE", options->file, "Contract (the producer when OTHER is given)")
      ->required()
      ->check(CLI::ExistingFile);
  app->add_option("OTHER", options->other, "Consumer contract to compare with")
      ->check(CLI::ExistingFile);
  app->add_option("-o,--output", options->output, "SVG file to write (- for standard output)")
      ->required();
  add_set_option(app, options->assignments);
  add_max_elements_option(app, options->max_elements);
  app->add_option("--width", options->width, "Picture width in px")
      ->check(finite_number_between(kMinSvgWidth, kMaxSvgWidth));
  app->add_option("--level", options->level,
                  "Grid level to draw (row-major over the dims before the last two grid axes; "
                  "default 0); only for a contract that declares a gather")
      ->check(whole_number());
  return {app, [options] { return run_render(*options); }};
}

}  // namespace layoutcheck::cli
