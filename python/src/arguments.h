// Python arguments as the library takes them: symbols given as keyword arguments (H=8, HV=16)
// as LoadOptions, paths given as str or os.PathLike.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "layoutcheck/contract/parse.h"

namespace layoutcheck::python {

// @post throws InputError (rule "usage") for a value that is not an integer of 64 bits (True
//       and 2.0 are not sizes).
LoadOptions load_options(const pybind11::dict& symbols, std::int64_t max_elements);

// os.fspath(path) as a string; TypeError for anything else.
std::string path_text(const pybind11::handle& path);

// A path argument may also be a loaded Contract: is this one?
bool is_contract(const pybind11::handle& object);

}  // namespace layoutcheck::python
