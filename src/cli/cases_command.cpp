// layoutcheck cases [--json]: the registered cases, each with its buffers (role, dtype, default
// contract), the kernel ABIs a port may implement, its decoders, its CPU mutants and its bench.
#include <algorithm>
#include <iostream>

#include "commands.h"
#include "common.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/json/json.h"
#include "layoutcheck/render/misread_text.h"

namespace layoutcheck::cli {
namespace {

int run_cases(bool json) {
  const auto cases = CaseRegistry::instance().list();
  if (json) {
    Json all = Json::array();
    for (const auto& known : cases) {
      Json buffers = Json::array();
      for (const BufferSpec& spec : known->buffers())
        buffers.push(Json::object()
                         .set("name", spec.name)
                         .set("role", buffer_role_name(spec.role))
                         .set("dtype", dtype_name(spec.dtype))
                         .set("contract", spec.contract)
                         .set("description", spec.description));
      Json abis = Json::array();
      for (const AbiSpec& abi : known->abis()) {
        Json passed = Json::strings(abi.buffers);
        abis.push(Json::object()
                      .set("name", abi.name)
                      .set("description", abi.description)
                      .set("header", abi.header)
                      .set("buffers", std::move(passed)));
      }
      Json decoders = Json::strings(known->decoders());
      Json mutants = Json::array();
      for (const auto& [name, description] : known->mutants())
        mutants.push(Json::object().set("name", name).set("description", description));
      Json bench;  // null: no bench
      if (const auto declared = known->bench()) {
        Json paths = Json::array();
        for (const BenchPathSpec& path : declared->paths)
          paths.push(Json::object()
                         .set("name", path.name)
                         .set("description", path.description)
                         .set("negative_control", path.negative_control));
        bench = Json::object().set("report_name", declared->report_name).set("paths", paths);
      }
      all.push(Json::object()
                   .set("name", known->name())
                   .set("summary", known->summary())
                   .set("buffers", std::move(buffers))
                   .set("abis", std::move(abis))
                   .set("decoders", std::move(decoders))
                   .set("default_probe_buffer", known->default_probe_buffer())
                   .set("mutants", std::move(mutants))
                   .set("bench", std::move(bench)));
    }
    std::cout << all.dump() << "\n";
    return kClean;
  }
  // A column as wide as its longest entry and two spaces, so a long name never runs into the next.
  const auto width = [](const auto& entries, auto name_of, std::size_t at_least) {
    std::size_t widest = at_least;
    for (const auto& entry : entries) widest = std::max(widest, name_of(entry).size() + 2);
    return widest;
  };
  for (const auto& known : cases) {
    std::cout << known->name() << ": " << known->summary() << "\n  buffers:\n";
    const auto buffers = known->buffers();
    const std::size_t buffer_width =
        width(buffers, [](const BufferSpec& spec) { return spec.name; }, 12);
    for (const BufferSpec& spec : buffers)
      std::cout << "    " << pad_right(spec.name, buffer_width)
                << pad_right(std::string(buffer_role_name(spec.role)), 9)
                << pad_right(std::string(dtype_name(spec.dtype)), 5)
                << (spec.contract.empty() ? std::string("-") : "contracts/" + spec.contract) << "  "
                << spec.description << "\n";
    const auto abis = known->abis();
    std::cout << "  abis:"
              << (abis.empty() ? " none (CPU models only; no port can be run yet)" : "") << "\n";
    for (const AbiSpec& abi : abis) {
      std::cout << "    " << abi.name << " (" << abi.header << "): " << abi.description << "\n";
      std::cout << "      buffers:";
      for (const std::string& name : abi.buffers) std::cout << " " << name;
      std::cout << "\n";
    }
    std::cout << "  decoders:";
    for (const std::string& name : known->decoders()) std::cout << " " << name;
    std::cout << " (default buffer " << known->default_probe_buffer() << ")\n";
    if (const auto declared = known->bench()) {
      std::cout << "  bench paths (layoutcheck bench --case " << declared->report_name
                << "; the first is the baseline):\n";
      const std::size_t path_width =
          width(declared->paths, [](const BenchPathSpec& path) { return path.name; }, 18);
      for (const BenchPathSpec& path : declared->paths)
        std::cout << "    " << pad_right(path.name, path_width) << path.description
                  << (path.negative_control ? " [negative control]" : "") << "\n";
    }
    const auto mutants = known->mutants();
    if (!mutants.empty()) {
      std::cout << "  cpu mutants:\n";
      const std::size_t mutant_width =
          width(mutants, [](const auto& mutant) { return mutant.first; }, 18);
      for (const auto& [name, description] : mutants)
        std::cout << "    " << pad_right(name, mutant_width) << description << "\n";
    }
  }
  return kClean;
}

}  // namespace

Command setup_cases_command(CLI::App& parent) {
  auto json = std::make_shared<bool>(false);
  CLI::App* app = parent.add_subcommand(
      "cases", "List the cases: their buffers, kernel ABIs, decoders and CPU mutants");
  app->add_flag("--json", *json, "Print the list as JSON");
  return {app, [json] { return run_cases(*json); }, [json] { return *json; }};
}

}  // namespace layoutcheck::cli
