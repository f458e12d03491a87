// The window partition as a framework runs it: F.pad each axis of the token grid, torch.roll the
// padded grid by -shift, then index_select the tokens in window order (int64 indices, as the
// framework's). The plan is derived from the same windows contract as the int32 gather map
// (layoutcheck/contract/gather_map.h), so the generic path and the native one are two readings
// of one specification, and the test holds them to the same slots.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck::pangu {

struct FrameworkWindowPlan {
  std::array<std::int64_t, 3> grid{};    // real extents (z, lat, lon)
  std::array<std::int64_t, 3> padded{};  // padded extents
  std::array<std::int64_t, 3> before{};  // F.pad's leading zeros per axis
  std::array<std::int64_t, 3> shift{};   // torch.roll by -shift per axis
  std::int64_t width = 0;                // elements per token
  std::vector<std::int64_t> index;       // per slot: the token of the rolled padded grid it takes
};

// @pre the contract passed lint and validates as a Pangu windows contract (pangu_buffers.h).
FrameworkWindowPlan framework_window_plan(const Contract& windows);

// Per slot, the real grid token pad + roll + index_select put there, or -1 for a padding token:
// what the plan computes, on the host.
std::vector<std::int32_t> framework_slot_sources(const FrameworkWindowPlan& plan);

}  // namespace layoutcheck::pangu
