// layoutcheck codegen CONTRACT.yaml [-o HEADER.h] : writes a header of __host__ __device__
// constexpr offset functions generated from the contract (symbols as parameters, expressions as
// written), so a kernel's addressing comes from the reviewed contract. Prints to stdout without -o
// (or with -o -).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/codegen/offset_header.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck::cli {
namespace {

struct CodegenOptions {
  std::string contract;
  std::optional<std::string> output;
  std::string source_label;
  std::vector<std::string> assignments;
  std::int64_t max_elements = kDefaultElementCap;
};

int run_codegen(const CodegenOptions& options) {
  // Validate before loading: an empty -o is a mistake (as in render), not a request for stdout.
  if (options.output && options.output->empty())
    throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                "-o needs a file name",
                                "give a header path, or - (or no -o) for standard output"});
  const Contract contract =
      load_contract(options.contract, load_options_from(options.assignments, options.max_elements));
  codegen::OffsetHeaderOptions header_options;
  header_options.source_label =
      options.source_label.empty() ? options.contract : options.source_label;
  const std::string header = codegen::generate_offset_header(contract, header_options);
  if (!options.output || *options.output == "-") {
    std::cout << header;
    return kClean;
  }
  write_output_file(*options.output, header);
  return kClean;
}

}  // namespace

Command setup_codegen_command(CLI::App& parent) {
  auto options = std::make_shared<CodegenOptions>();
  CLI::App* app = parent.add_subcommand(
      "codegen",
      "Generate a header of __host__ __device__ constexpr offset functions from a contract");
  app->add_option("contract", options->contract, "Contract YAML file")->required();
  app->add_option("-o,--output", options->output,
                  "Header to write (default, or -: standard output)");
  app->add_option("--source-label", options->source_label,
                  "Path shown in the header's first line (default: the contract path as given)");
  add_set_option(app, options->assignments);
  add_max_elements_option(app, options->max_elements);
  return {app, [options] { return run_codegen(*options); }};
}

}  // namespace layoutcheck::cli
