// layoutcheck codegen CONTRACT.yaml [-o HEADER.h] : writes a header of __host__ __device__
// constexpr offset functions generated from the contract (symbols as parameters, expressions as
// written), so a kernel's addressing comes from the reviewed contract. Prints to stdout without -o.
#include <fstream>
#include <iostream>
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
  std::string output;
  std::string source_label;
  std::vector<std::string> assignments;
};

int run_codegen(const CodegenOptions& options) {
  const Contract contract = load_contract(options.contract, load_options_from(options.assignments));
  codegen::OffsetHeaderOptions header_options;
  header_options.source_label =
      options.source_label.empty() ? options.contract : options.source_label;
  const std::string header = codegen::generate_offset_header(contract, header_options);
  if (options.output.empty()) {
    std::cout << header;
    return kClean;
  }
  std::ofstream file(options.output, std::ios::binary);
  file << header;
  file.close();
  if (!file) {
    std::cerr << "layoutcheck codegen: error: cannot write '" << options.output << "'\n";
    return kInputError;
  }
  return kClean;
}

}  // namespace

Command setup_codegen_command(CLI::App& parent) {
  auto options = std::make_shared<CodegenOptions>();
  CLI::App* app = parent.add_subcommand(
      "codegen",
      "Generate a header of __host__ __device__ constexpr offset functions from a contract");
  app->add_option("contract", options->contract, "Contract YAML file")->required();
  app->add_option("-o,--output", options->output, "Header to write (default: stdout)");
  app->add_option("--source-label", options->source_label,
                  "Path shown in the header's first line (default: the contract path as given)");
  add_set_option(app, options->assignments);
  return {app, [options] { return run_codegen(*options); }};
}

}  // namespace layoutcheck::cli
