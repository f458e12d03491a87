#include "cases/pangu/gpu/pangu_entry.h"

#include "cases/pangu/gpu/device_walk.h"
#include "kernels/pangu/pangu_kernels.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/check.h"

namespace layoutcheck::gpu {

void launch_pangu_call(const pangu::PanguCall& call, const std::vector<void*>& tensors,
                       hipStream_t stream) {
  pangu::check_pangu_call(call);
  const auto half = [&](std::size_t i) { return static_cast<std::uint16_t*>(tensors.at(i)); };
  const std::vector<std::int64_t>& first = call.tensors[0].shape;
  const std::int64_t width = first[2];
  using pangu::PanguOperator;
  switch (call.op) {
    case PanguOperator::layer_norm:
      kernels::pangu_layer_norm(half(0), half(1), first[0] * first[1], width, stream);
      break;
    case PanguOperator::add_layer_norm:
      kernels::pangu_add_layer_norm(half(0), half(1), half(2), half(3), first[0] * first[1], width,
                                    stream);
      break;
    case PanguOperator::window_gather:
    case PanguOperator::window_reverse:
    case PanguOperator::layer_norm_gather: {
      const std::vector<std::int32_t> entries(call.map.begin(), call.map.end());
      const DeviceBuffer<GatherStep> walk = upload_walk(entries, width);
      const std::int64_t from_rows = first[1], to_rows = call.tensors[1].shape[1];
      for (std::int64_t b = 0; b < first[0]; ++b) {
        const std::uint16_t* from = half(0) + b * from_rows * width;
        std::uint16_t* to = half(1) + b * to_rows * width;
        if (call.op == PanguOperator::layer_norm_gather)
          kernels::pangu_layer_norm_gather(from, walk.data(), to, to_rows, width, stream);
        else
          kernels::pangu_gather(from, walk.data(), to, to_rows, width, stream);
      }
      LC_GPU_CHECK(hipStreamSynchronize(stream));
      return;
    }
  }
  LC_GPU_CHECK(hipStreamSynchronize(stream));
}

}  // namespace layoutcheck::gpu
