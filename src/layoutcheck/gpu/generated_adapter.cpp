#include "layoutcheck/gpu/generated_adapter.h"

#include <cstdint>

namespace layoutcheck::gpu {
namespace {

RtcSource rtc_source_of(const codegen::AdapterSource& adapter, const Contract& from,
                        const Contract& to) {
  RtcSource source;
  source.name = "adapter " + from.name + " -> " + to.name;
  source.text = adapter.text;
  source.entries.push_back(adapter.scalar_entry);
  if (adapter.wide_possible) source.entries.push_back(adapter.wide_entry);
  return source;
}

bool aligned16(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

}  // namespace

GeneratedAdapter::GeneratedAdapter(const Contract& from, const Contract& to)
    : source_(codegen::generate_adapter_source(from, to)),
      module_(RtcModule::compile(rtc_source_of(source_, from, to))) {}

void GeneratedAdapter::enqueue(const void* source_rows, std::int64_t source_row_stride,
                               void* target_rows, std::int64_t target_row_stride,
                               std::int64_t batch, hipStream_t stream) const {
  if (batch <= 0 || batch > 65535) throw GpuError("generated adapter: batch must be 1..65535");
  const std::int64_t bytes = source_.element_bytes;
  const bool wide = source_.wide_possible && aligned16(source_rows) && aligned16(target_rows) &&
                    (source_row_stride * bytes) % 16 == 0 && (target_row_stride * bytes) % 16 == 0;
  const std::int64_t items = wide ? source_.wide_items : source_.scalar_items;
  if (items == 0) return;
  long long source_stride = source_row_stride, target_stride = target_row_stride;
  void* params[] = {&source_rows, &source_stride, &target_rows, &target_stride};
  const dim3 grid(
      static_cast<unsigned>((items + codegen::kAdapterThreads - 1) / codegen::kAdapterThreads),
      static_cast<unsigned>(batch));
  module_.launch(wide ? source_.wide_entry : source_.scalar_entry, grid,
                 dim3(codegen::kAdapterThreads), 0, stream, params);
}

}  // namespace layoutcheck::gpu
