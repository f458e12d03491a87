#include "cases/pangu/gpu/pangu_gpu_runners.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/pangu/pangu_kernels.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {
namespace {

[[noreturn]] void refuse(const Contract& contract, const std::string& message) {
  throw InputError(Diagnostic{contract.where, Severity::error, "case-layout",
                              contract.name + ": " + message,
                              "the Pangu kernels take contiguous fp16 rows of 192, 384 or 768"});
}

// The bytes of `rows` rows of `buffer`, one after another (the kernels take contiguous rows).
std::span<const std::uint16_t> halves(const HostBuffer& buffer) {
  return buffer.as<std::uint16_t>();
}

class GpuWindowGather : public CaseRunner {
 public:
  explicit GpuWindowGather(const CaseLayouts& layouts)
      : map_(make_gather_map(layouts.at("windows"))) {
    if (map_.token_width % 8 != 0)
      refuse(layouts.at("windows"), "tokens of " + std::to_string(map_.token_width) +
                                        " channels: the gather moves 16-byte pieces (8 fp16)");
    device_map_ = DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(map_.slots));
  }
  std::string name() const override { return "pangu-window-gather:gpu"; }
  void run(BufferSet& buffers) override {
    const HostBuffer& x = buffers.at("x");
    HostBuffer& windows = buffers.at("windows");
    const std::int64_t width = map_.token_width;
    if (x.row_stride != map_.tokens * width ||
        windows.row_stride != static_cast<std::int64_t>(map_.slots.size()) * width)
      throw std::invalid_argument("pangu-window-gather:gpu: rows padded between batch rows");
    DeviceBuffer<std::uint16_t> in(halves(x));
    DeviceBuffer<std::uint16_t> out(static_cast<std::size_t>(windows.elements()));
    for (std::int64_t row = 0; row < x.rows; ++row)
      kernels::pangu_gather(in.data() + row * x.row_stride, device_map_.data(),
                            out.data() + row * windows.row_stride,
                            static_cast<std::int64_t>(map_.slots.size()), width, stream_.get());
    stream_.synchronize();
    out.download(windows.as<std::uint16_t>());
  }

 private:
  GatherMap map_;
  DeviceBuffer<std::int32_t> device_map_;
  Stream stream_;
};

class GpuLayerNorm : public CaseRunner {
 public:
  explicit GpuLayerNorm(const CaseLayouts& layouts) {
    for (const char* buffer : {"x", "out"}) {
      const Contract& contract = layouts.at(buffer);
      width_ = contract.fields.at(0).elements();
      if (!kernels::pangu_width_supported(width_))
        refuse(contract, "rows of " + std::to_string(width_) +
                             " channels; the kernels are built for 192, 384 and 768 only");
      if (row_stride(contract) != width_ || contract.fields[0].offset_of_linear(0) != 0)
        refuse(contract,
               "rows are not contiguous (row stride " + std::to_string(row_stride(contract)) + ")");
    }
  }
  std::string name() const override { return "pangu-layernorm:gpu"; }
  void run(BufferSet& buffers) override {
    const HostBuffer& x = buffers.at("x");
    HostBuffer& out = buffers.at("out");
    DeviceBuffer<std::uint16_t> in(halves(x));
    DeviceBuffer<std::uint16_t> result(static_cast<std::size_t>(out.elements()));
    kernels::pangu_layer_norm(in.data(), result.data(), x.rows, width_, stream_.get());
    stream_.synchronize();
    result.download(out.as<std::uint16_t>());
  }

 private:
  std::int64_t width_ = 0;
  Stream stream_;
};

}  // namespace

std::unique_ptr<CaseRunner> make_gpu_window_gather(const CaseLayouts& layouts) {
  return std::make_unique<GpuWindowGather>(layouts);
}

std::unique_ptr<CaseRunner> make_gpu_layer_norm(const CaseLayouts& layouts) {
  return std::make_unique<GpuLayerNorm>(layouts);
}

}  // namespace layoutcheck::gpu
