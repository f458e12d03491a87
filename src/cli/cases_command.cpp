// layoutcheck cases [--json]: the registered cases, each with its buffers (role, dtype, default
// contract), the kernel ABIs a port may implement, its decoders, its CPU mutants and its bench.
#include <iostream>

#include "commands.h"
#include "common.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/render/json.h"
#include "layoutcheck/render/report_text.h"

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
        Json passed = Json::array();
        for (const std::string& name : abi.buffers) passed.push(name);
        abis.push(Json::object()
                      .set("name", abi.name)
                      .set("description", abi.description)
                      .set("header", abi.header)
                      .set("buffers", std::move(passed)));
      }
      Json decoders = Json::array();
      for (const std::string& name : known->decoders()) decoders.push(name);
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
  for (const auto& known : cases) {
    std::cout << known->name() << ": " << known->summary() << "\n  buffers:\n";
    for (const BufferSpec& spec : known->buffers())
      std::cout << "    " << pad_right(spec.name, 12)
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
      std::cout << "  bench paths (layoutcheck bench --case " << known->name()
                << "; the first is the baseline):\n";
      for (const BenchPathSpec& path : declared->paths)
        std::cout << "    " << pad_right(path.name, 18) << path.description
                  << (path.negative_control ? " [negative control]" : "") << "\n";
    }
    const auto mutants = known->mutants();
    if (!mutants.empty()) {
      std::cout << "  cpu mutants:\n";
      for (const auto& [name, description] : mutants)
        std::cout << "    " << pad_right(name, 18) << description << "\n";
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
  return {app, [json] { return run_cases(*json); }};
}

}  // namespace layoutcheck::cli
