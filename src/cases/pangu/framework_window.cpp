#include "cases/pangu/framework_window.h"

namespace layoutcheck::pangu {

FrameworkWindowPlan framework_window_plan(const Contract& windows) {
  const Field& field = windows.fields.at(0);
  FrameworkWindowPlan plan;
  plan.width = field.dims.at(3).size();
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const Dim& dim = field.dims[axis];
    plan.grid[axis] = dim.size();
    plan.padded[axis] = dim.padded_size();
    plan.before[axis] = dim.pad_before;
    plan.shift[axis] = dim.shift;
  }
  const auto& [pz, ph, pw] = plan.padded;
  plan.index.assign(static_cast<std::size_t>(pz * ph * pw), 0);
  // The contract's padded positions are those of the rolled grid: token p of it goes to the slot
  // the modes put position p in.
  for (std::int64_t z = 0; z < pz; ++z)
    for (std::int64_t lat = 0; lat < ph; ++lat)
      for (std::int64_t lon = 0; lon < pw; ++lon) {
        const std::int64_t offset = field.offset + field.dims[0].offset_of_position(z) +
                                    field.dims[1].offset_of_position(lat) +
                                    field.dims[2].offset_of_position(lon);
        plan.index[static_cast<std::size_t>(offset / plan.width)] = (z * ph + lat) * pw + lon;
      }
  return plan;
}

std::vector<std::int32_t> framework_slot_sources(const FrameworkWindowPlan& plan) {
  const auto& [pz, ph, pw] = plan.padded;
  std::vector<std::int32_t> sources;
  sources.reserve(plan.index.size());
  for (const std::int64_t rolled : plan.index) {
    const std::int64_t position[3] = {rolled / (ph * pw), rolled / pw % ph, rolled % pw};
    std::int64_t token = 0;
    bool real = true;
    for (std::size_t axis = 0; axis < 3; ++axis) {
      // roll(-shift): rolled[p] = padded[(p + shift) mod n]; padded[q] = x[q - before].
      const std::int64_t n = plan.padded[axis];
      const std::int64_t q = ((position[axis] + plan.shift[axis]) % n + n) % n;
      const std::int64_t i = q - plan.before[axis];
      real = real && i >= 0 && i < plan.grid[axis];
      token = token * plan.grid[axis] + i;
    }
    sources.push_back(real ? static_cast<std::int32_t>(token) : -1);
  }
  return sources;
}

}  // namespace layoutcheck::pangu
