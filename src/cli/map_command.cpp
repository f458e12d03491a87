// layoutcheck map CONTRACT -o FILE [--reverse] [--format npy|raw] [--set K=V]... : writes the
// int32 index map of a contract that declares a gather (a window partition: each slot's source
// token, -1 writing zero), or with --reverse its reverse (each token's slot: crop and un-shift),
// so a kernel is fed the map lint proves, not one computed apart. Loading lints the contract:
// one with errors gets no map (exit 2, its diagnostics printed).
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/render/npy.h"

namespace layoutcheck::cli {
namespace {

struct MapOptions {
  std::string contract;
  std::string output;
  bool reverse = false;
  std::string format = "npy";
  std::vector<std::string> assignments;
  std::int64_t max_elements = kDefaultElementCap;
};

int run_map(const MapOptions& options) {
  if (options.output.empty())
    throw_usage_error("-o needs a file name", "give a path, or - for standard output");
  const Contract contract = load_contract_argument(
      options.contract, load_options_from(options.assignments, options.max_elements));
  if (!contract.gather)
    throw_usage_error(
        contract_argument_name(options.contract) + " declares no gather: it has no index map",
        "map takes a contract with `gather: {field, token}` (contracts/pangu/windows.yaml)");
  const GatherMap map = make_gather_map(contract);
  const std::vector<std::int32_t> entries = options.reverse ? reverse_map(map) : map.slots;
  const std::string bytes = options.format == "npy" ? npy_int32(entries) : raw_int32(entries);
  const std::string what =
      options.reverse
          ? "the reverse map: " + std::to_string(entries.size()) + " tokens, each its slot of " +
                std::to_string(map.slots.size())
          : "the map: " + gather_summary(map);
  if (options.output == "-") {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::cerr << what << "\n";
    return finish_standard_output(kClean);
  }
  write_output_file(options.output, bytes);
  std::cout << options.output << ": int32 " << options.format << ", " << what << "\n";
  return finish_standard_output(kClean);
}

}  // namespace

Command setup_map_command(CLI::App& parent) {
  auto options = std::make_shared<MapOptions>();
  CLI::App* app = parent.add_subcommand(
      "map", "Write the int32 index map of a contract's gather (lint proves it) for a kernel");
  app->add_option("contract", options->contract, "Contract YAML file (- for standard input)")
      ->required();
  app->add_option("-o,--output", options->output, "File to write (- for standard output)")
      ->required();
  app->add_flag("--reverse", options->reverse,
                "The reverse map instead: per token of the grid, the slot it is gathered into");
  app->add_option("--format", options->format,
                  "npy (NumPy, numpy.load) or raw (little-endian int32, nothing else)")
      ->check(CLI::IsMember({"npy", "raw"}));
  add_set_option(app, options->assignments);
  add_max_elements_option(app, options->max_elements);
  return {app, [options] { return run_map(*options); }};
}

}  // namespace layoutcheck::cli
