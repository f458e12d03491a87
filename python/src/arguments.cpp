#include "arguments.h"

#include <limits>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck::python {

namespace py = pybind11;

LoadOptions load_options(const py::dict& symbols, std::int64_t max_elements) {
  if (max_elements < 1 || max_elements > kMaxElementCap)
    throw_usage_error("max_elements=" + std::to_string(max_elements) +
                          ": the cap is from 1 to " + std::to_string(kMaxElementCap),
                      "give max_elements=N with 1 <= N <= 2**32 - 3");
  LoadOptions options;
  options.element_cap = max_elements;
  for (const auto& [key, value] : symbols) {
    const std::string name = py::str(key);
    const bool integer = py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value);
    if (!integer)
      throw_usage_error("symbol " + name + "=" + std::string(py::repr(value)) +
                            ": a symbol's value is an integer",
                        "give " + name + "=<integer>");
    // Python integers are unbounded; the contracts' arithmetic is 64-bit.
    const py::int_ wide = py::reinterpret_borrow<py::int_>(value);
    const bool fits = wide >= py::int_(std::numeric_limits<std::int64_t>::min()) &&
                      wide <= py::int_(std::numeric_limits<std::int64_t>::max());
    if (!fits)
      throw_usage_error(
          "symbol " + name + "=" + std::string(py::str(value)) + ": does not fit in 64 bits",
          "give a smaller value");
    options.overrides.emplace_back(name, value.cast<std::int64_t>());
  }
  return options;
}

std::string path_text(const py::handle& path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

bool is_contract(const py::handle& object) {
  return py::isinstance<Contract>(object);
}

}  // namespace layoutcheck::python
