// Codegen: a layout adapter from two contracts of the same buffer. The kernel is a gather
// specialised with constants: for every logical element, the source offset (where the `from`
// contract puts it) and the target offset (where `to` wants it) are closed-form expressions of
// the element's index with every size and stride a literal, so the compiler turns the index
// arithmetic into multiplies and shifts. Runs that are contiguous in both rows are copied 16 bytes
// at a time. Compiled at run time (hipRTC / NVRTC, gpu/generated_adapter.h).
//
// Kernel ABI (both entries, grid (ceil(items / kAdapterThreads), batch), kAdapterThreads threads):
//   extern "C" __global__ void <entry>(const void* source, long long source_row_stride,
//                                      void* target, long long target_row_stride)
// Strides are in elements. The _wide entry needs 16-byte aligned pointers and strides that keep
// every row 16-byte aligned; the _scalar entry copies one element per thread and works always.
#pragma once

#include <cstdint>
#include <string>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck::codegen {

inline constexpr int kAdapterThreads = 256;

struct AdapterSource {
  std::string text;          // the HIP source
  std::string wide_entry;    // "<name>_wide"
  std::string scalar_entry;  // "<name>_scalar"
  int element_bytes = 0;
  std::int64_t wide_items = 0;    // per row: threads the wide entry needs
  std::int64_t scalar_items = 0;  // per row: threads the scalar entry needs
  bool wide_possible = false;     // every field and fill vectorises; else only _scalar exists
  int vector_elements = 1;        // elements per 16-byte chunk
  std::int64_t from_row_size = 0;
  std::int64_t to_row_size = 0;
  std::string description;  // one line per field: run length and whether it is copied wide
};

// @pre from and to passed the layout checks.
// @post throws InputError (rule "incompatible") unless both have the same fields, shapes and
//       dtype (require_same_fields). Padding the target declares with a fill value is written.
AdapterSource generate_adapter_source(const Contract& from, const Contract& to,
                                      const std::string& entry_name = "layoutcheck_adapter");

}  // namespace layoutcheck::codegen
