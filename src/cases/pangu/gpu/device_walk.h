// A gather map's walk (gather_walk.h) as the Pangu gathers take it at a width, on the device: the
// one place a map becomes what pangu_gather and pangu_layer_norm_gather read.
#pragma once

#include <cstdint>
#include <span>

#include "layoutcheck/contract/gather_walk.h"
#include "layoutcheck/gpu/buffer.h"

namespace layoutcheck::gpu {

// @post map.size() steps in kernels::pangu_walk_order(width); throws as gather_walk does.
DeviceBuffer<GatherStep> upload_walk(std::span<const std::int32_t> map, std::int64_t width);

}  // namespace layoutcheck::gpu
