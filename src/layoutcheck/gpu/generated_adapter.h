// An adapter generated from two contracts (codegen/adapter_source.h) and compiled at run time for
// the current GPU: moves every logical element of rows laid out by `from` to where `to` wants it.
#pragma once

#include <cstdint>

#include "layoutcheck/codegen/adapter_source.h"
#include "layoutcheck/contract/contract.h"
#include "layoutcheck/gpu/rtc.h"

namespace layoutcheck::gpu {

class GeneratedAdapter {
 public:
  // @post throws InputError when the contracts do not describe the same fields, RtcError (with the
  //       compiler log) when the generated source fails to compile, GpuError without a GPU.
  GeneratedAdapter(const Contract& from, const Contract& to);

  const codegen::AdapterSource& source() const { return source_; }

  // Converts `batch` rows on stream. Strides are in elements. Uses 16-byte copies when the
  // contracts, pointers and strides allow, else one element per thread.
  void enqueue(const void* source_rows, std::int64_t source_row_stride, void* target_rows,
               std::int64_t target_row_stride, std::int64_t batch, hipStream_t stream) const;

 private:
  codegen::AdapterSource source_;
  RtcModule module_;
};

}  // namespace layoutcheck::gpu
