// The module's errors, as the Python exception classes of layoutcheck/errors.py:
//   InputError      a contract, file or argument the tool cannot go on with: every diagnostic
//                   (file, line, column, severity, rule, message, fix), as the CLI's exit 2;
//   ProbeCallError  the probed callable failed: it raised (the exception is the __cause__),
//                   returned or wrote something its buffers cannot hold, or wrote NaN.
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck::python {

// Thrown by the callable's runner through the probe engine (a C++ exception, so the engine
// unwinds as for any runner failure); the probe binding turns it into ProbeCallError.
class CallableFailed : public std::runtime_error {
 public:
  CallableFailed(const std::string& message, pybind11::object cause)
      : std::runtime_error(message), cause_(std::move(cause)) {}
  const pybind11::object& cause() const { return cause_; }  // None when nothing raised

 private:
  pybind11::object cause_;
};

// Registers the translation of InputError and CallableFailed into the Python classes (pybind11
// itself maps std::invalid_argument to ValueError and other std::exceptions to RuntimeError).
void register_error_translators();

// Sets ProbeCallError as the pending Python exception, `cause` as its __cause__.
void set_probe_call_error(const CallableFailed& failure);

}  // namespace layoutcheck::python
