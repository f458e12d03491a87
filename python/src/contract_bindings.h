// layoutcheck.load_contract, lint, diff, explain and render: the static half of the tool, each
// returning what the CLI's --json prints, as plain Python objects.
#pragma once

#include <pybind11/pybind11.h>

namespace layoutcheck::python {

void bind_contracts(pybind11::module_& module);

}  // namespace layoutcheck::python
