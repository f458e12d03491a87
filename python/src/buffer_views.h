// A case's host buffers as NumPy arrays over their own bytes, for one call of a Python callable:
// no copy in either direction. A buffer laid out by a contract is a (rows, row_size) array whose
// rows are row_stride elements apart; one without (a weight) is 1-D. bf16 has no NumPy dtype:
// those arrays are uint16 holding the bits (layoutcheck.bf16_to_float32 reads them). Inputs are
// read-only, so a callable that writes one fails where it writes.
//
// A view must not outlive the bytes it looks at, and a callable may keep one (in a cache, a
// closure, a global). release() finds every view still referenced after the call and hands it
// the buffer's storage, giving the buffer a copy: the kept view stays valid memory and the probe
// goes on with the same values.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "layoutcheck/cases/buffers.h"

namespace layoutcheck::python {

// "float16", "uint16 (bf16 bits)": the NumPy dtype a buffer of this dtype arrives as.
std::string numpy_dtype_text(DType dtype);
pybind11::dtype numpy_dtype(DType dtype);

struct BufferView {
  HostBuffer* buffer = nullptr;
  BufferSpec spec;
  pybind11::array array;
  pybind11::capsule storage;  // the array's base: owns the bytes once the array is kept
};

class BufferViews {
 public:
  // @pre every buffer of `buffers` has a spec; the views borrow `buffers` until release().
  BufferViews(BufferSet& buffers, const std::vector<BufferSpec>& specs);
  BufferViews(const BufferViews&) = delete;
  BufferViews& operator=(const BufferViews&) = delete;
  ~BufferViews() { release(); }

  // {name: array} in the case's buffer order, for fn(**kwargs).
  pybind11::dict keyword_arguments() const;
  const std::vector<BufferView>& views() const { return views_; }
  const BufferView* find(const std::string& name) const;

  // @post no array refers to bytes the buffers may free; idempotent.
  void release();

 private:
  std::vector<BufferView> views_;
  bool released_ = false;
};

}  // namespace layoutcheck::python
