#include "buffer_views.h"

#include <memory>
#include <utility>

namespace layoutcheck::python {

namespace py = pybind11;

namespace {

// The bytes a kept view looks at once the buffer has been given a copy.
struct KeptBytes {
  std::vector<std::uint8_t> bytes;
};

std::vector<py::ssize_t> shape_of(const HostBuffer& buffer, const BufferSpec& spec) {
  const std::int64_t elements = buffer.elements();
  if (spec.contract.empty() && buffer.rows <= 1) return {elements};
  const std::int64_t rows = buffer.rows;
  const std::int64_t row_size = rows > 0 ? elements - (rows - 1) * buffer.row_stride : 0;
  return {rows, row_size};
}

std::vector<py::ssize_t> strides_of(const HostBuffer& buffer, std::size_t dims) {
  const py::ssize_t width = buffer.width();
  if (dims == 1) return {width};
  return {buffer.row_stride * width, width};
}

}  // namespace

std::string numpy_dtype_text(DType dtype) {
  if (dtype == DType::bf16) return "uint16 (bf16 bits)";
  return py::str(numpy_dtype(dtype));
}

py::dtype numpy_dtype(DType dtype) {
  switch (dtype) {
    case DType::bf16:
      return py::dtype("uint16");
    case DType::fp16:
      return py::dtype("float16");
    case DType::fp32:
      return py::dtype("float32");
    case DType::fp64:
      return py::dtype("float64");
    case DType::i8:
      return py::dtype("int8");
    case DType::u8:
      return py::dtype("uint8");
    case DType::i16:
      return py::dtype("int16");
    case DType::i32:
      return py::dtype("int32");
    case DType::i64:
      return py::dtype("int64");
  }
  throw std::logic_error("no NumPy dtype for " + std::string(dtype_name(dtype)));
}

BufferViews::BufferViews(BufferSet& buffers, const std::vector<BufferSpec>& specs) {
  for (const BufferSpec& spec : specs) {
    HostBuffer& buffer = buffers.at(spec.name);
    BufferView view{&buffer, spec, {}, {}};
    view.storage =
        py::capsule(new KeptBytes{}, [](void* kept) { delete static_cast<KeptBytes*>(kept); });
    const std::vector<py::ssize_t> shape = shape_of(buffer, spec);
    view.array = py::array(numpy_dtype(buffer.dtype), shape, strides_of(buffer, shape.size()),
                           buffer.bytes.data(), view.storage);
    if (!spec.writes()) view.array.attr("flags").attr("writeable") = false;
    views_.push_back(std::move(view));
  }
}

py::dict BufferViews::keyword_arguments() const {
  py::dict arguments;
  for (const BufferView& view : views_) arguments[py::str(view.spec.name)] = view.array;
  return arguments;
}

const BufferView* BufferViews::find(const std::string& name) const {
  for (const BufferView& view : views_)
    if (view.spec.name == name) return &view;
  return nullptr;
}

void BufferViews::release() {
  if (released_) return;
  released_ = true;
  for (BufferView& view : views_) {
    // Ours: views_ holds the array; the array and our handle hold the capsule. NumPy points a
    // view of a view at the capsule directly, so both counts matter.
    const bool kept = view.array.ref_count() > 1 || view.storage.ref_count() > 2;
    if (kept) {
      auto* storage = view.storage.get_pointer<KeptBytes>();
      storage->bytes = std::move(view.buffer->bytes);  // the heap block moves, the view stays
      view.buffer->bytes = storage->bytes;
    }
  }
}

}  // namespace layoutcheck::python
