// layoutcheck diff PRODUCER CONSUMER: what a kernel built for CONSUMER's layout misreads when fed
// buffers laid out by PRODUCER. Exit 0 when nothing is misread, 1 when something is (an element,
// or rows stepped by another stride). Either contract may be "-", read from standard input (the
// base of a pull request: git show BASE:FILE | layoutcheck diff - FILE).
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/misread_json.h"
#include "layoutcheck/render/misread_markdown.h"
#include "layoutcheck/render/misread_text.h"
#include "layoutcheck/render/svg.h"

namespace layoutcheck::cli {
namespace {

struct DiffOptions {
  std::string producer;
  std::string consumer;
  std::vector<std::string> assignments;
  bool json = false;
  OutputFormat format = OutputFormat::text;
  std::optional<std::int64_t> max_runs;
  std::string picture;  // the diff's SVG, written there and linked from the Markdown
  std::int64_t max_elements = kDefaultElementCap;

  OutputFormat output() const { return json ? OutputFormat::json : format; }
};

// The picture is linked by its file name, as the Markdown and the picture are meant to sit side by
// side (a PR comment's attachments, a CI artifact folder); what would end the link is
// percent-encoded.
std::string link_target(const std::string& path) {
  std::string target;
  for (const char c : std::filesystem::path(path).filename().string()) {
    if (c == ' ')
      target += "%20";
    else if (c == '(')
      target += "%28";
    else if (c == ')')
      target += "%29";
    else
      target += c;
  }
  return target;
}

int run_diff(const DiffOptions& options) {
  if (options.producer == kStandardInput && options.consumer == kStandardInput)
    throw_usage_error("PRODUCER and CONSUMER are both '-': standard input holds one contract",
                      "give one of them as a file");
  const LoadOptions load = load_options_from(options.assignments, options.max_elements);
  if (!options.picture.empty()) check_output_folder(options.picture);
  const Contract producer = load_contract_argument(options.producer, load);
  const Contract consumer = load_contract_argument(options.consumer, load);
  const MisreadReport report = diff_contracts(producer, consumer);
  if (!options.picture.empty())
    write_output_file(options.picture, render_diff_svg(producer, consumer, report));
  auto runs = [&](std::size_t fallback) {
    return options.max_runs ? static_cast<std::size_t>(*options.max_runs) : fallback;
  };
  switch (options.output()) {
    case OutputFormat::json:
      std::cout << report_to_json(report, runs(kAllRuns)).dump() << "\n";
      break;
    case OutputFormat::markdown:
      std::cout << report_to_markdown(
          report,
          {runs(kDefaultTextRuns), options.picture.empty() ? "" : link_target(options.picture)});
      break;
    case OutputFormat::text:
      std::cout << report_to_text(report, runs(kDefaultTextRuns));
      if (!options.picture.empty()) std::cout << "wrote " << options.picture << "\n";
      break;
  }
  return report.has_findings() ? kFindings : kClean;
}

}  // namespace

Command setup_diff_command(CLI::App& parent) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* app = parent.add_subcommand(
      "diff",
      "What a kernel built for CONSUMER's layout misreads when fed buffers laid out by PRODUCER: "
      "per field both layouts and what changed, then the misread runs. Exit 0: nothing misread, "
      "1: misread elements or rows stepped differently, 2: usage or input error");
  app->add_option("PRODUCER", options->producer,
                  "Contract of the buffer as written (- reads it from standard input)")
      ->required()
      ->type_name("FILE");
  app->add_option("CONSUMER", options->consumer,
                  "Contract the reading kernel was built for (- reads it from standard input)")
      ->required()
      ->type_name("FILE");
  add_set_option(app, options->assignments);
  add_max_elements_option(app, options->max_elements);
  add_format_options(app, options->format, options->json);
  app->add_option("--max-runs", options->max_runs,
                  "Misread runs to list (text and md default 8, JSON default all)")
      ->check(integer_at_least(0));
  app->add_option(
         "--picture", options->picture,
         "Also draw the diff (layoutcheck render) into this SVG file; the Markdown links it "
         "by file name, to sit beside it")
      ->type_name("FILE.svg");
  return {app, [options] { return run_diff(*options); },
          [options] { return options->output() == OutputFormat::json; }};
}

}  // namespace layoutcheck::cli
