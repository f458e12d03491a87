// A Python callable as a case's runner: the probe engine's black box. Each run calls
//   fn(**buffers)
// with every buffer of the case as a NumPy view (buffer_views.h). The callable writes its output
// and in-place buffers where they are, or returns what it computed: an array for the case's one
// output buffer, a tuple of arrays for its output buffers in the case's order, or a dict naming
// any buffer it writes. A returned array must have the buffer's shape and dtype exactly.
//
// Output buffers are filled with all-ones bytes (NaN in every float dtype) before each call, so an
// element the callable leaves unwritten shows. After the call, a NaN in a written buffer when no
// buffer it reads held one is an error, as is anything it raises, naming the call.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "buffer_views.h"
#include "layoutcheck/cases/case.h"

namespace layoutcheck::python {

class CallableRunner : public CaseRunner {
 public:
  // name: what the verdict calls the runner; empty: the callable's qualified name.
  CallableRunner(pybind11::object callable, std::vector<BufferSpec> specs, std::string name);

  std::string name() const override { return name_; }
  // @post throws CallableFailed naming the call; KeyboardInterrupt and SystemExit pass through.
  void run(BufferSet& buffers) override;
  std::int64_t calls() const { return calls_; }

 private:
  // "call 17 of layer_norm_rows (test_norm.py:12)"
  std::string call_text() const;
  void store_returned(const pybind11::object& returned, const BufferViews& views);
  void store_one(const std::string& buffer, const pybind11::handle& value,
                 const BufferViews& views);
  void check_no_new_nan(const BufferSet& buffers, bool inputs_hold_nan) const;

  pybind11::object callable_;
  std::vector<BufferSpec> specs_;
  std::string name_;
  std::string where_;  // "test_norm.py:12", when the callable has code
  std::int64_t calls_ = 0;
};

}  // namespace layoutcheck::python
