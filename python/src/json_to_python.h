// The project's Json model as plain Python objects (dict, list, str, int, float, bool, None), so
// what the module returns has exactly the fields and values of the CLI's --json output.
#pragma once

#include <pybind11/pybind11.h>

#include "layoutcheck/json/json.h"

namespace layoutcheck::python {

pybind11::object to_python(const Json& json);

}  // namespace layoutcheck::python
