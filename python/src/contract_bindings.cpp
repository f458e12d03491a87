#include "contract_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "arguments.h"
#include "json_to_python.h"
#include "layoutcheck/check/lint_report.h"
#include "layoutcheck/render/lint_report.h"
#include "layoutcheck/contract/contract.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/explain.h"
#include "layoutcheck/render/grid_level.h"
#include "layoutcheck/render/grid_svg.h"
#include "layoutcheck/render/misread_json.h"
#include "layoutcheck/render/svg.h"

namespace layoutcheck::python {

namespace py = pybind11;

namespace {

// A contract argument: a loaded Contract as it is, or a path loaded with the symbols. Symbols
// with a loaded contract would silently not apply, so they are refused.
Contract contract_argument(const py::handle& argument, const LoadOptions& load) {
  if (is_contract(argument)) {
    if (!load.overrides.empty())
      throw_usage_error("symbols were given with a contract already loaded",
                        "give the symbols to load_contract, or pass the path");
    return argument.cast<Contract>();
  }
  return load_contract(path_text(argument), load);
}

py::dict symbols_of(const Contract& contract) {
  py::dict symbols;
  for (const Symbol& symbol : contract.symbols) symbols[py::str(symbol.name)] = symbol.value;
  return symbols;
}

py::list fields_of(const Contract& contract) {
  py::list fields;
  for (const Field& field : contract.fields) {
    py::dict entry;
    entry["name"] = field.name;
    entry["offset"] = field.offset;
    entry["elements"] = field.elements();
    entry["shape"] = py::tuple(py::cast(field.shape()));
    entry["layout"] = field.layout_string();
    entry["description"] = field.description;
    fields.append(std::move(entry));
  }
  return fields;
}

py::object lint(const py::args& paths, std::int64_t max_elements, const py::kwargs& symbols) {
  LoadOptions load = load_options(symbols, max_elements);
  load.ignore_unknown_overrides = paths.size() > 1;
  std::vector<LintFileResult> results;
  for (const py::handle& path : paths) {
    results.push_back(lint_file_result(path_text(path), load));
    const LintFileResult& result = results.back();
    // What the CLI exits 2 on: a file it cannot read, a symbol no file can take.
    if (result.unreadable) throw InputError(result.diagnostics);
    for (const Diagnostic& d : result.diagnostics)
      if (d.severity == Severity::error && d.where.file == "<command line>") throw InputError(d);
  }
  if (load.ignore_unknown_overrides)
    if (const auto unused = overrides_no_file_declares(results, load); !unused.empty())
      throw InputError(unused);
  std::vector<LintedFile> reports;
  for (const LintFileResult& result : results) reports.push_back(linted_file(result));
  return to_python(lint_to_json(reports));
}

py::object diff(const py::handle& producer, const py::handle& consumer,
                std::optional<std::size_t> max_runs, std::int64_t max_elements,
                const py::kwargs& symbols) {
  const LoadOptions load = load_options(symbols, max_elements);
  const Contract written = contract_argument(producer, load);
  const Contract read = contract_argument(consumer, load);
  return to_python(report_to_json(diff_contracts(written, read), max_runs.value_or(kAllRuns)));
}

py::object explain(const py::handle& contract, std::optional<std::int64_t> offset,
                   std::optional<std::string> element, std::int64_t max_elements,
                   const py::kwargs& symbols) {
  if (offset.has_value() == element.has_value())
    throw_usage_error("explain takes exactly one of offset= or element=",
                      "explain(contract, offset=256) or explain(contract, element='V[7,8]')");
  const Contract loaded = contract_argument(contract, load_options(symbols, max_elements));
  const Explainer explainer(loaded);
  return to_python(
      explanation_to_json(offset ? explainer.at_offset(*offset) : explainer.at_element(*element)));
}

py::object render(const py::handle& contract, const py::object& other, const py::object& output,
                  double width, std::optional<std::int64_t> level, std::int64_t max_elements,
                  const py::kwargs& symbols) {
  const LoadOptions load = load_options(symbols, max_elements);
  const Contract first = contract_argument(contract, load);
  SvgOptions svg;
  svg.width = width;
  if (level && !first.gather)
    throw_usage_error("level= draws one level of a grid, and " + first.name + " declares no gather",
                      "drop level= to draw the row");
  if (level && !other.is_none())
    throw_usage_error("level= draws one contract's grid, not a comparison of two",
                      "drop other= or level=");
  std::string picture;
  try {
    if (other.is_none() && (level || is_grid_contract(first))) {
      picture = render_grid_svg(first, level.value_or(0), svg);
    } else if (other.is_none()) {
      picture = render_row_svg(first, svg);
    } else {
      const Contract second = contract_argument(other, load);
      picture = render_diff_svg(first, second, diff_contracts(first, second), svg);
    }
  } catch (const std::invalid_argument& refused) {
    throw_usage_error(refused.what());
  }
  if (output.is_none()) return py::str(picture);
  const std::string path = path_text(output);
  std::ofstream file(path, std::ios::binary);
  file.write(picture.data(), static_cast<std::streamsize>(picture.size()));
  file.close();
  if (!file)
    throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "output",
                                "cannot write " + path,
                                "check that the directory exists and is writable"});
  return output;
}

// As `layoutcheck map`: loading lints the contract, so a map is only ever one lint proves.
py::array_t<std::int32_t> gather_map(const py::handle& contract, bool reverse,
                                     std::int64_t max_elements, const py::kwargs& symbols) {
  const Contract loaded = contract_argument(contract, load_options(symbols, max_elements));
  if (!loaded.gather)
    throw_usage_error(loaded.name + " declares no gather: it has no index map",
                      "gather_map takes a contract with `gather: {field, token}`");
  const GatherMap map = make_gather_map(loaded);
  const std::vector<std::int32_t> entries = reverse ? reverse_map(map) : map.slots;
  py::array_t<std::int32_t> array(static_cast<py::ssize_t>(entries.size()));
  std::copy(entries.begin(), entries.end(), array.mutable_data());
  return array;
}

}  // namespace

void bind_contracts(py::module_& module) {
  py::class_<Contract>(module, "Contract",
                       "A loaded contract: one row of one buffer, every expression resolved and "
                       "every layout rule checked (load_contract).")
      .def_property_readonly("file", [](const Contract& c) { return c.file; })
      .def_property_readonly("name", [](const Contract& c) { return c.name; })
      .def_property_readonly("buffer", [](const Contract& c) { return c.buffer; })
      .def_property_readonly("description", [](const Contract& c) { return c.description; })
      .def_property_readonly("dtype",
                             [](const Contract& c) { return std::string(dtype_name(c.dtype)); })
      .def_property_readonly("row_size", [](const Contract& c) { return c.row_size; })
      .def_property_readonly("elements", &Contract::elements)
      .def_property_readonly("symbols", &symbols_of)
      .def_property_readonly("fields", &fields_of)
      .def(
          "offset_of",
          [](const Contract& c, const std::string& element) {
            return c.offset_of(c.parse_element(element));
          },
          py::arg("element"), "The offset of an element named like 'V[7,8]'.")
      .def("__repr__", [](const Contract& c) {
        return "<layoutcheck.Contract " + c.name + " (" + c.buffer + ", " +
               std::string(dtype_name(c.dtype)) + ", " + std::to_string(c.elements()) +
               " elements in a row of " + std::to_string(c.row_size) + ")>";
      });

  module.def(
      "load_contract",
      [](const py::handle& path, std::int64_t max_elements, const py::kwargs& symbols) {
        return load_contract(path_text(path), load_options(symbols, max_elements));
      },
      py::arg("path"), py::kw_only(), py::arg("max_elements") = kDefaultElementCap,
      "Parses and checks a contract; symbols override its defaults (H=8). Raises InputError.");
  // After *paths every argument is keyword-only.
  module.def("lint", &lint, py::arg("max_elements") = kDefaultElementCap,
             "Lints contract files: {'files': [...]} as `layoutcheck lint --json` prints it.");
  module.def("diff", &diff, py::arg("producer"), py::arg("consumer"), py::kw_only(),
             py::arg("max_runs") = py::none(), py::arg("max_elements") = kDefaultElementCap,
             "What a kernel built for CONSUMER misreads when fed PRODUCER: as `diff --json`.");
  module.def("explain", &explain, py::arg("contract"), py::kw_only(),
             py::arg("offset") = py::none(), py::arg("element") = py::none(),
             py::arg("max_elements") = kDefaultElementCap,
             "Offset -> element or element -> offset, with the arithmetic: as `explain --json`.");
  module.def("gather_map", &gather_map, py::arg("contract"), py::kw_only(),
             py::arg("reverse") = false, py::arg("max_elements") = kDefaultElementCap,
             "The int32 index map of a contract's gather (per slot its token, -1 writing zero; "
             "reverse=True: per token its slot), as `layoutcheck map` writes it: a NumPy array.");
  module.def("render", &render, py::arg("contract"), py::arg("other") = py::none(), py::kw_only(),
             py::arg("output") = py::none(), py::arg("width") = 1400.0,
             py::arg("level") = py::none(), py::arg("max_elements") = kDefaultElementCap,
             "The SVG of a row (with other: both rows and the misread runs); the text, or the "
             "path it was written to when output= is given.");
}

}  // namespace layoutcheck::python
