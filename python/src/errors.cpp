#include "errors.h"

namespace layoutcheck::python {

namespace py = pybind11;

namespace {

py::object error_class(const char* name) {
  return py::module_::import("layoutcheck.errors").attr(name);
}

py::list diagnostics_to_python(const std::vector<Diagnostic>& diagnostics) {
  py::list list;
  for (const Diagnostic& d : diagnostics) {
    py::dict entry;
    entry["file"] = d.where.file;
    entry["line"] = d.where.line;
    entry["column"] = d.where.column;
    entry["severity"] = severity_name(d.severity);
    entry["rule"] = d.rule;
    entry["message"] = d.message;
    entry["fix"] = d.fix;
    list.append(std::move(entry));
  }
  return list;
}

void set_input_error(const InputError& input_error) {
  const py::object error = error_class("InputError")(
      diagnostics_to_python(input_error.diagnostics()), input_error.what());
  PyErr_SetObject(error.get_type().ptr(), error.ptr());
}

}  // namespace

void register_error_translators() {
  py::register_exception_translator([](std::exception_ptr pending) {
    if (!pending) return;
    try {
      std::rethrow_exception(pending);
    } catch (const InputError& error) {
      set_input_error(error);
    } catch (const CallableFailed& failure) {
      set_probe_call_error(failure);
    }
  });
}

void set_probe_call_error(const CallableFailed& failure) {
  const py::object error = error_class("ProbeCallError")(failure.what());
  if (!failure.cause().is_none()) error.attr("__cause__") = failure.cause();
  PyErr_SetObject(error.get_type().ptr(), error.ptr());
}

}  // namespace layoutcheck::python
