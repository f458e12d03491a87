// The order a gather's kernel takes its slots in. The int32 map (gather_map.h) stays the
// specification, one entry per slot; the walk lists the same slots, each with the token it reads.
// By token, the zero-writing slots last, a kernel reads the source in order, one pass, and writes
// the slots in runs (a window row's tokens are neighbours in the grid); by slot it is the other
// way round. Which is faster depends on the kernel and the width (kernels/pangu/DESIGN.md).
//
//   const std::vector<GatherStep> walk = gather_walk(map.slots, WalkOrder::by_token);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace layoutcheck {

// Slot `slot` of the gathered buffer receives source token `token`, or zeros where it is -1.
// Eight bytes, aligned so, so that a kernel reads a step in one load.
struct alignas(8) GatherStep {
  std::int32_t slot;
  std::int32_t token;
  friend bool operator==(const GatherStep&, const GatherStep&) = default;
};

enum class WalkOrder {
  by_token,  // by the token read (slots reading one token in slot order), then the -1 slots
  by_slot,   // slot 0, 1, 2, ...: the map itself
};

// @post every slot of `map` exactly once, in `order`; throws std::invalid_argument naming the
//       first entry below -1 or a map of more than 2^31 - 1 slots.
std::vector<GatherStep> gather_walk(std::span<const std::int32_t> map, WalkOrder order);

}  // namespace layoutcheck
