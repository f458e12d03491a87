// layoutcheck.probe: a Python callable probed as a kernel of a case, through the toolkit's
// generic decoders, with the request `layoutcheck probe --case` builds from the same arguments
// (probe/case_probe_request.h), so the verdict is the one the CLI prints with --json.
#pragma once

#include <pybind11/pybind11.h>

namespace layoutcheck::python {

void bind_probe(pybind11::module_& module);

}  // namespace layoutcheck::python
