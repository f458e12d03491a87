#include "cases/pangu/gpu/device_walk.h"

#include <vector>

#include "kernels/pangu/pangu_kernels.h"

namespace layoutcheck::gpu {

DeviceBuffer<GatherStep> upload_walk(std::span<const std::int32_t> map, std::int64_t width) {
  const std::vector<GatherStep> walk = gather_walk(map, kernels::pangu_walk_order(width));
  return DeviceBuffer<GatherStep>(std::span<const GatherStep>(walk));
}

}  // namespace layoutcheck::gpu
