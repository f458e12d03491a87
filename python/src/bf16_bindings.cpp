#include "bf16_bindings.h"

#include <pybind11/numpy.h>

#include "layoutcheck/platform/bf16.h"

namespace layoutcheck::python {

namespace py = pybind11;

void bind_bf16(py::module_& module) {
  module.def("bf16_to_float32", py::vectorize([](std::uint16_t bits) {
               return bf16_to_float(static_cast<bf16_bits>(bits));
             }),
             py::arg("bits"), "uint16 bf16 bits -> float32, exactly.");
  module.def("float32_to_bf16", py::vectorize([](float value) {
               return static_cast<std::uint16_t>(float_to_bf16(value));
             }),
             py::arg("values"), "float32 -> uint16 bf16 bits, rounded to nearest even.");
}

}  // namespace layoutcheck::python
