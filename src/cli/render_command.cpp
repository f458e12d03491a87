// layoutcheck render FILE [OTHER] -o OUT.svg: one row coloured by field and labelled by head; with
// OTHER, FILE is the producer and OTHER the consumer, and the misread runs are marked. A grid
// contract (one that gathers a token grid) is drawn as one level of its grid, --level N (0).
#include <algorithm>
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
  std::string range;  // "BEGIN:END", offsets of the row, END exclusive
  std::int64_t max_elements = kDefaultElementCap;
};

// "0:2048" -> {0, 2048}; a usage error naming the option for anything else.
OffsetRange parse_range(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::optional<std::int64_t> begin =
      colon == std::string::npos ? std::nullopt : whole_integer(text.substr(0, colon));
  const std::optional<std::int64_t> end =
      colon == std::string::npos ? std::nullopt : whole_integer(text.substr(colon + 1));
  if (!begin || !end || *begin < 0 || *begin >= *end)
    throw_usage_error("--range: expected BEGIN:END with 0 <= BEGIN < END, got '" + text + "'",
                      "e.g. --range 0:2048 draws offsets 0 to 2047");
  return {*begin, *end};
}

int run_render(const RenderOptions& options) {
  const LoadOptions load = load_options_from(options.assignments, options.max_elements);
  SvgOptions svg{options.width};
  if (!options.range.empty()) svg.range = parse_range(options.range);
  if (options.output != "-") check_output_folder(options.output);
  const Contract first = load_contract_argument(options.file, load);
  if (svg.range && (options.level || is_grid_contract(first)))
    throw_usage_error("--range zooms on part of a row; a grid is drawn whole", "drop --range");
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
    if (svg.range && svg.range->end > first.row_size)
      throw_usage_error("--range " + options.range + " ends past the row's " +
                            std::to_string(first.row_size) + " offsets",
                        "END is at most " + std::to_string(first.row_size));
    picture = render_row_svg(first, svg);
  } else {
    const Contract second = load_contract_argument(options.other, load);
    const std::int64_t row_size = std::max(first.row_size, second.row_size);
    if (svg.range && svg.range->end > row_size)
      throw_usage_error("--range " + options.range + " ends past the row's " +
                            std::to_string(row_size) + " offsets",
                        "END is at most " + std::to_string(row_size));
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
  app->add_option("FILE", options->file,
                  "Contract (the producer when OTHER is given); - reads it from standard input")
      ->required()
      ->type_name("FILE");
  app->add_option("OTHER", options->other, "Consumer contract to compare with (- for stdin)")
      ->type_name("FILE");
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
  app->add_option("--range", options->range,
                  "Draw only offsets BEGIN to END-1 of the row, e.g. 0:2048 (a zoom)")
      ->type_name("BEGIN:END");
  return {app, [options] { return run_render(*options); }};
}

}  // namespace layoutcheck::cli
