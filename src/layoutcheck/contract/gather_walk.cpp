#include "layoutcheck/contract/gather_walk.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace layoutcheck {

std::vector<GatherStep> gather_walk(std::span<const std::int32_t> map, WalkOrder order) {
  if (map.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::invalid_argument("a gather of " + std::to_string(map.size()) +
                                " slots: more than an int32 slot index holds");
  std::vector<GatherStep> walk(map.size());
  for (std::size_t slot = 0; slot < map.size(); ++slot) {
    if (map[slot] < -1)
      throw std::invalid_argument("gather map entry " + std::to_string(slot) + " is " +
                                  std::to_string(map[slot]) +
                                  ": a slot reads a token (>= 0) or writes zero (-1)");
    walk[slot] = {static_cast<std::int32_t>(slot), map[slot]};
  }
  if (order == WalkOrder::by_slot) return walk;
  // -1 as the largest token puts the zero-writing slots last; stable keeps slot order within.
  const auto key = [](const GatherStep& step) { return static_cast<std::uint32_t>(step.token); };
  std::stable_sort(walk.begin(), walk.end(),
                   [&](const GatherStep& a, const GatherStep& b) { return key(a) < key(b); });
  return walk;
}

}  // namespace layoutcheck
