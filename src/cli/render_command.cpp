// layoutcheck render FILE [OTHER] -o OUT.svg: one row coloured by field and labelled by head; with
// OTHER, FILE is the producer and OTHER the consumer, and the misread runs are marked.
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/svg.h"

namespace layoutcheck::cli {
namespace {

struct RenderOptions {
  std::string file;
  std::string other;
  std::string output;
  std::vector<std::string> assignments;
  double width = 1400;
  std::int64_t max_elements = kDefaultElementCap;
};

int run_render(const RenderOptions& options) {
  const LoadOptions load = load_options_from(options.assignments, options.max_elements);
  const Contract first = load_contract(options.file, load);
  const SvgOptions svg{options.width};
  std::string picture;
  if (options.other.empty()) {
    picture = render_row_svg(first, svg);
  } else {
    const Contract second = load_contract(options.other, load);
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
      "and the misread runs marked");
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
  return {app, [options] { return run_render(*options); }};
}

}  // namespace layoutcheck::cli
