#include "probe_bindings.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "arguments.h"
#include "callable_runner.h"
#include "errors.h"
#include "json_to_python.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/probe/case_probe.h"
#include "layoutcheck/probe/case_probe_request.h"
#include "layoutcheck/render/misread_json.h"

namespace layoutcheck::python {

namespace py = pybind11;

namespace {

// A callable is a black box: only the toolkit's decoders, which need nothing but the case's
// reference, can decode it (GDN's own decoder drives its runners batch by batch).
std::string decoder_for(const Case& subject, const std::optional<std::string>& asked) {
  const std::vector<std::string> offered = subject.decoders();
  auto generic = [](const std::string& name) {
    return name == kDependenceDecoder || name == kDataMovementDecoder;
  };
  if (asked) {
    if (!generic(*asked) || std::find(offered.begin(), offered.end(), *asked) == offered.end())
      throw_usage_error("decoder '" + *asked + "' cannot decode a Python callable probed as a " +
                            subject.name() + " kernel",
                        "decoder='dependence' or decoder='data-movement', whichever the case "
                        "lists (layoutcheck cases)");
    return *asked;
  }
  for (const std::string& name : offered)
    if (generic(name)) return name;
  throw_usage_error("case '" + subject.name() + "' offers no decoder for a Python callable",
                    "a case listing dependence or data-movement (layoutcheck cases)");
}

struct ProbeArguments {
  std::string case_name;
  CaseProbeFiles files;
  std::optional<std::string> decoder;
  std::int64_t rows = 2;
  std::uint64_t seed = 1;
  std::int64_t max_probes = CaseProbeRequest{}.max_probes;
  std::optional<double> tolerance;
  std::optional<std::size_t> max_runs;
  std::string name;
  std::string contracts_folder;
};

py::object probe(const py::object& fn, const ProbeArguments& arguments, const LoadOptions& load) {
  if (arguments.rows < 1) throw_usage_error("rows= must be at least 1");
  if (arguments.max_probes < 1) throw_usage_error("max_probes= must be at least 1");
  if (arguments.tolerance && !(*arguments.tolerance > 0 && std::isfinite(*arguments.tolerance)))
    throw_usage_error("tolerance= must be a finite number above 0");
  const auto subject = CaseRegistry::instance().get(arguments.case_name);
  const std::string decoder = decoder_for(*subject, arguments.decoder);
  CaseProbeRequest request =
      case_probe_request(*subject, arguments.files, load, arguments.contracts_folder);
  request.rows = arguments.rows;
  request.seed = arguments.seed;
  request.max_probes = arguments.max_probes;
  request.tolerance = arguments.tolerance.value_or(request.tolerance);
  CallableRunner kernel(fn, subject->buffers(), arguments.name);
  const CaseVerdict verdict = probe_case(*subject, kernel, decoder, request);
  return to_python(case_verdict_json(verdict, arguments.max_runs.value_or(kAllRuns)));
}

py::list case_buffers(const std::string& case_name) {
  py::list buffers;
  for (const BufferSpec& spec : CaseRegistry::instance().get(case_name)->buffers()) {
    py::dict entry;
    entry["name"] = spec.name;
    entry["role"] = std::string(buffer_role_name(spec.role));
    entry["dtype"] = std::string(dtype_name(spec.dtype));
    entry["contract"] = spec.contract;
    entry["description"] = spec.description;
    buffers.append(std::move(entry));
  }
  return buffers;
}

}  // namespace

void bind_probe(py::module_& module) {
  module.def(
      "_probe",
      [](const py::object& fn, const std::string& case_name, const py::handle& producer,
         const py::handle& consumer, const std::vector<py::handle>& with_contracts,
         const std::vector<py::handle>& producer_with, std::optional<std::string> buffer,
         std::optional<std::string> decoder, std::int64_t rows, std::uint64_t seed,
         std::int64_t max_probes, std::optional<double> tolerance,
         std::optional<std::size_t> max_runs, std::string name, std::string contracts_folder,
         std::int64_t max_elements, const py::dict& symbols) {
        ProbeArguments arguments;
        arguments.case_name = case_name;
        arguments.files.producer = path_text(producer);
        arguments.files.consumer = path_text(consumer);
        for (const py::handle& file : with_contracts)
          arguments.files.with.push_back(path_text(file));
        for (const py::handle& file : producer_with)
          arguments.files.producer_with.push_back(path_text(file));
        arguments.files.buffer = std::move(buffer);
        arguments.decoder = std::move(decoder);
        arguments.rows = rows;
        arguments.seed = seed;
        arguments.max_probes = max_probes;
        arguments.tolerance = tolerance;
        arguments.max_runs = max_runs;
        arguments.name = std::move(name);
        arguments.contracts_folder = std::move(contracts_folder);
        return probe(fn, arguments, load_options(symbols, max_elements));
      },
      py::arg("fn"), py::arg("case"), py::arg("producer"), py::arg("consumer"),
      py::arg("with_contracts"), py::arg("producer_with"), py::arg("buffer"), py::arg("decoder"),
      py::arg("rows"), py::arg("seed"), py::arg("max_probes"), py::arg("tolerance"),
      py::arg("max_runs"), py::arg("name"), py::arg("contracts_folder"), py::arg("max_elements"),
      py::arg("symbols"), "The engine behind layoutcheck.probe (which documents the arguments).");
  module.def("case_buffers", &case_buffers, py::arg("case"),
             "The buffers a case's kernel receives, in the order they are passed: [{name, role, "
             "dtype, contract, description}].");
  module.def(
      "case_names",
      [] {
        std::vector<std::string> names;
        for (const auto& registered : CaseRegistry::instance().list())
          names.push_back(registered->name());
        return names;
      },
      "The registered cases, sorted.");
}

}  // namespace layoutcheck::python
