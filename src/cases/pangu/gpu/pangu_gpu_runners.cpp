#include "cases/pangu/gpu/pangu_gpu_runners.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "cases/pangu/gpu/device_walk.h"
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

// Rows of `buffer` must follow each other with no gap: the kernels take one contiguous array.
void require_packed(const HostBuffer& buffer, std::int64_t row_elements, const std::string& who) {
  if (buffer.row_stride != row_elements)
    throw std::invalid_argument(who + ": rows of '" + buffer.name + "' padded between batch rows");
}

// Moves tokens by a map, slot by slot (the gather, its reverse, or LayerNorm + gather), one
// launch per batch row over the same device map.
class GpuTokenMover : public CaseRunner {
 public:
  enum class Kind { gather, reverse, layer_norm_gather };
  GpuTokenMover(const CaseLayouts& layouts, Kind kind)
      : kind_(kind), forward_(make_gather_map(layouts.at("windows"))) {
    const std::int64_t width = forward_.token_width;
    if (kind == Kind::layer_norm_gather && !kernels::pangu_width_supported(width))
      refuse(layouts.at("windows"), "tokens of " + std::to_string(width) +
                                        " channels; the kernels are built for 192, 384 and 768");
    if (width % 8 != 0)
      refuse(layouts.at("windows"), "tokens of " + std::to_string(width) +
                                        " channels: the gather moves 16-byte pieces (8 fp16)");
    map_ = kind == Kind::reverse ? reverse_map(forward_) : forward_.slots;
    device_walk_ = upload_walk(map_, width);
  }
  std::string name() const override {
    return kind_ == Kind::gather    ? "pangu-window-gather:gpu"
           : kind_ == Kind::reverse ? "pangu-window-reverse:gpu"
                                    : "pangu-layernorm-gather:gpu";
  }
  void run(BufferSet& buffers) override {
    const bool reverse = kind_ == Kind::reverse;
    const HostBuffer& from = buffers.at(reverse ? "windows" : "x");
    HostBuffer& to = buffers.at(reverse ? "x" : "windows");
    const std::int64_t width = forward_.token_width;
    const auto slots = static_cast<std::int64_t>(forward_.slots.size());
    require_packed(from, (reverse ? slots : forward_.tokens) * width, name());
    require_packed(to, (reverse ? forward_.tokens : slots) * width, name());
    DeviceBuffer<std::uint16_t> in(halves(from));
    DeviceBuffer<std::uint16_t> out(static_cast<std::size_t>(to.elements()));
    const auto written = static_cast<std::int64_t>(map_.size());
    for (std::int64_t row = 0; row < from.rows; ++row) {
      const std::uint16_t* source = in.data() + row * from.row_stride;
      std::uint16_t* target = out.data() + row * to.row_stride;
      if (kind_ == Kind::layer_norm_gather)
        kernels::pangu_layer_norm_gather(source, device_walk_.data(), target, written, width,
                                         stream_.get());
      else
        kernels::pangu_gather(source, device_walk_.data(), target, written, width, stream_.get());
    }
    stream_.synchronize();
    out.download(to.as<std::uint16_t>());
  }

 private:
  Kind kind_;
  GatherMap forward_;
  std::vector<std::int32_t> map_;
  DeviceBuffer<GatherStep> device_walk_;
  Stream stream_;
};

// The width every buffer's contract gives, when it is one the kernels are built for and every
// row is contiguous.
std::int64_t row_width(const CaseLayouts& layouts, const std::vector<std::string>& buffers) {
  std::int64_t width = 0;
  for (const std::string& buffer : buffers) {
    const Contract& contract = layouts.at(buffer);
    const std::int64_t own = contract.fields.at(0).elements();
    if (!kernels::pangu_width_supported(own))
      refuse(contract, "rows of " + std::to_string(own) +
                           " channels; the kernels are built for 192, 384 and 768 only");
    if (row_stride(contract) != own || contract.fields[0].offset_of_linear(0) != 0)
      refuse(contract,
             "rows are not contiguous (row stride " + std::to_string(row_stride(contract)) + ")");
    if (width != 0 && own != width)
      refuse(contract, "rows of " + std::to_string(own) + " channels beside rows of " +
                           std::to_string(width) + ": the buffers' shapes do not match");
    width = own;
  }
  return width;
}

class GpuLayerNorm : public CaseRunner {
 public:
  explicit GpuLayerNorm(const CaseLayouts& layouts) : width_(row_width(layouts, {"x", "out"})) {}
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

class GpuAddLayerNorm : public CaseRunner {
 public:
  explicit GpuAddLayerNorm(const CaseLayouts& layouts)
      : width_(row_width(layouts, {"residual", "branch", "residual_out", "out"})) {}
  std::string name() const override { return "pangu-add-layernorm:gpu"; }
  void run(BufferSet& buffers) override {
    const HostBuffer& residual = buffers.at("residual");
    DeviceBuffer<std::uint16_t> a(halves(residual)), b(halves(buffers.at("branch")));
    DeviceBuffer<std::uint16_t> sum(a.size()), out(a.size());
    kernels::pangu_add_layer_norm(a.data(), b.data(), sum.data(), out.data(), residual.rows,
                                  width_, stream_.get());
    stream_.synchronize();
    sum.download(buffers.at("residual_out").as<std::uint16_t>());
    out.download(buffers.at("out").as<std::uint16_t>());
  }

 private:
  std::int64_t width_ = 0;
  Stream stream_;
};

}  // namespace

std::unique_ptr<CaseRunner> make_gpu_window_gather(const CaseLayouts& layouts) {
  return std::make_unique<GpuTokenMover>(layouts, GpuTokenMover::Kind::gather);
}

std::unique_ptr<CaseRunner> make_gpu_window_reverse(const CaseLayouts& layouts) {
  return std::make_unique<GpuTokenMover>(layouts, GpuTokenMover::Kind::reverse);
}

std::unique_ptr<CaseRunner> make_gpu_layer_norm_gather(const CaseLayouts& layouts) {
  return std::make_unique<GpuTokenMover>(layouts, GpuTokenMover::Kind::layer_norm_gather);
}

std::unique_ptr<CaseRunner> make_gpu_add_layer_norm(const CaseLayouts& layouts) {
  return std::make_unique<GpuAddLayerNorm>(layouts);
}

std::unique_ptr<CaseRunner> make_gpu_layer_norm(const CaseLayouts& layouts) {
  return std::make_unique<GpuLayerNorm>(layouts);
}

}  // namespace layoutcheck::gpu
