// bf16 for NumPy, which has no such dtype: the bits as uint16, converted with the project's own
// round-to-nearest-even (platform/bf16.h), the same on host and device.
#pragma once

#include <pybind11/pybind11.h>

namespace layoutcheck::python {

void bind_bf16(pybind11::module_& module);

}  // namespace layoutcheck::python
