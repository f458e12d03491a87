// The extension behind `import layoutcheck` (python/layoutcheck/__init__.py re-exports it):
// contracts (lint, diff, explain, render), probes of Python callables, bf16 conversions.
#include <pybind11/pybind11.h>

#include "bf16_bindings.h"
#include "cases/builtin_cases.h"
#include "contract_bindings.h"
#include "errors.h"
#include "layoutcheck/contract/contract.h"
#include "probe_bindings.h"

PYBIND11_MODULE(_layoutcheck, module) {
  module.doc() = "layoutcheck's C++ library: contracts, probes and bf16 (use `import layoutcheck`)";
  module.attr("DEFAULT_MAX_ELEMENTS") = layoutcheck::kDefaultElementCap;
  layoutcheck::register_builtin_cases();  // as the CLI does at start-up
  layoutcheck::python::register_error_translators();
  layoutcheck::python::bind_contracts(module);
  layoutcheck::python::bind_probe(module);
  layoutcheck::python::bind_bf16(module);
}
