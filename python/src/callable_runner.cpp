#include "callable_runner.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "errors.h"

namespace layoutcheck::python {

namespace py = pybind11;

namespace {

bool is_float(DType dtype) {
  return dtype == DType::bf16 || dtype == DType::fp16 || dtype == DType::fp32 ||
         dtype == DType::fp64;
}

struct NanCount {
  std::int64_t count = 0;
  std::int64_t first = -1;
};

NanCount nan_in(const HostBuffer& buffer) {
  NanCount found;
  if (!is_float(buffer.dtype)) return found;
  for (std::int64_t i = 0; i < buffer.elements(); ++i)
    if (std::isnan(buffer.value(i))) {
      if (found.count++ == 0) found.first = i;
    }
  return found;
}

std::string shape_text(const py::handle& array) {
  const py::tuple shape = array.attr("shape");
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::string(py::str(shape[i]));
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string type_name(const py::handle& object) {
  return py::str(py::type::of(object).attr("__name__"));
}

std::string qualified_name(const py::handle& callable) {
  for (const char* attribute : {"__qualname__", "__name__"})
    if (py::hasattr(callable, attribute)) return py::str(callable.attr(attribute));
  return py::str(py::type::of(callable).attr("__qualname__"));
}

// Where the callable is defined; a wrapper (functools.wraps) names what it wraps.
std::string code_location(py::handle callable) {
  py::object unwrapped = py::reinterpret_borrow<py::object>(callable);
  for (int depth = 0; depth < 16 && py::hasattr(unwrapped, "__wrapped__"); ++depth)
    unwrapped = unwrapped.attr("__wrapped__");
  if (!py::hasattr(unwrapped, "__code__")) return "";
  const py::object code = unwrapped.attr("__code__");
  const std::string file = py::str(code.attr("co_filename"));
  const std::string base = file.substr(file.find_last_of('/') + 1);
  return base + ":" + std::string(py::str(code.attr("co_firstlineno")));
}

}  // namespace

CallableRunner::CallableRunner(py::object callable, std::vector<BufferSpec> specs, std::string name)
    : callable_(std::move(callable)), specs_(std::move(specs)) {
  if (!PyCallable_Check(callable_.ptr()))
    throw py::type_error("probe: fn must be callable, got " + type_name(callable_));
  where_ = code_location(callable_);
  name_ = name.empty() ? "python " + qualified_name(callable_) : std::move(name);
}

std::string CallableRunner::call_text() const {
  return "call " + std::to_string(calls_) + " of " + qualified_name(callable_) +
         (where_.empty() ? "" : " (" + where_ + ")");
}

void CallableRunner::run(BufferSet& buffers) {
  ++calls_;
  bool inputs_hold_nan = false;
  for (const BufferSpec& spec : specs_) {
    HostBuffer& buffer = buffers.at(spec.name);
    if (spec.role == BufferRole::output)
      std::fill(buffer.bytes.begin(), buffer.bytes.end(), std::uint8_t{0xFF});
    else
      inputs_hold_nan = inputs_hold_nan || nan_in(buffer).count > 0;
  }
  {
    BufferViews views(buffers, specs_);
    py::object returned;
    try {
      returned = callable_(**views.keyword_arguments());
    } catch (py::error_already_set& raised) {
      if (raised.matches(PyExc_KeyboardInterrupt) || raised.matches(PyExc_SystemExit)) throw;
      const py::object error = raised.value();
      throw CallableFailed(
          call_text() + " raised " + type_name(error) + ": " + std::string(py::str(error)), error);
    }
    store_returned(returned, views);
    returned = py::none();
    views.release();
  }
  check_no_new_nan(buffers, inputs_hold_nan);
}

void CallableRunner::store_returned(const py::object& returned, const BufferViews& views) {
  if (returned.is_none()) return;
  std::vector<std::string> outputs, written;
  for (const BufferSpec& spec : specs_) {
    if (spec.role == BufferRole::output) outputs.push_back(spec.name);
    if (spec.writes()) written.push_back(spec.name);
  }
  auto names = [](const std::vector<std::string>& list) {
    std::string text;
    for (const std::string& name : list) text += (text.empty() ? "" : ", ") + name;
    return text.empty() ? std::string("none") : text;
  };
  if (py::isinstance<py::dict>(returned)) {
    for (const auto& [key, value] : returned.cast<py::dict>()) {
      const std::string buffer = py::str(key);
      if (std::find(written.begin(), written.end(), buffer) == written.end())
        throw CallableFailed(call_text() + " returned '" + buffer +
                                 "', which is not a buffer it writes (" + names(written) + ")",
                             py::none());
      store_one(buffer, value, views);
    }
    return;
  }
  if (py::isinstance<py::tuple>(returned) || py::isinstance<py::list>(returned)) {
    const py::sequence values = returned.cast<py::sequence>();
    if (values.size() != outputs.size())
      throw CallableFailed(call_text() + " returned " + std::to_string(values.size()) +
                               " values; the case has " + std::to_string(outputs.size()) +
                               " output buffers (" + names(outputs) + "), in that order",
                           py::none());
    for (std::size_t i = 0; i < outputs.size(); ++i) store_one(outputs[i], values[i], views);
    return;
  }
  if (outputs.size() != 1)
    throw CallableFailed(call_text() + " returned one " + type_name(returned) + "; the case has " +
                             std::to_string(outputs.size()) + " output buffers (" + names(outputs) +
                             "): return a tuple in that order or a dict by name",
                         py::none());
  store_one(outputs.front(), returned, views);
}

void CallableRunner::store_one(const std::string& buffer, const py::handle& value,
                               const BufferViews& views) {
  const BufferView& view = *views.find(buffer);
  py::array array;
  try {
    array = py::module_::import("numpy").attr("asarray")(value);
  } catch (py::error_already_set& refused) {
    throw CallableFailed(call_text() + " returned for '" + buffer + "' a " + type_name(value) +
                             " NumPy cannot read: " + refused.what(),
                         py::none());
  }
  const bool same_dtype = array.dtype().equal(numpy_dtype(view.buffer->dtype));
  const bool same_shape = shape_text(array) == shape_text(view.array);
  if (!same_dtype || !same_shape)
    throw CallableFailed(call_text() + " returned '" + buffer + "' as " +
                             std::string(py::str(array.dtype())) + " " + shape_text(array) +
                             "; the buffer is " + numpy_dtype_text(view.buffer->dtype) + " " +
                             shape_text(view.array),
                         py::none());
  py::module_::import("numpy").attr("copyto")(view.array, array);
}

void CallableRunner::check_no_new_nan(const BufferSet& buffers, bool inputs_hold_nan) const {
  if (inputs_hold_nan) return;
  for (const BufferSpec& spec : specs_) {
    if (!spec.writes()) continue;
    const NanCount found = nan_in(buffers.at(spec.name));
    if (found.count == 0) continue;
    throw CallableFailed(
        call_text() + " left NaN in '" + spec.name + "': " + std::to_string(found.count) + " of " +
            std::to_string(buffers.at(spec.name).elements()) + " elements, the first at index " +
            std::to_string(found.first) + ", where no buffer it reads holds one" +
            (spec.role == BufferRole::output
                 ? " (outputs start as NaN: an element never written stays NaN)"
                 : ""),
        py::none());
  }
}

}  // namespace layoutcheck::python
