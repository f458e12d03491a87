// The window partition's index arithmetic as a port computes it from the ABI's geometry
// (PanguWindowGeometry, kernels/pangu/pangu_abi.h) instead of reading the map: the grid token a
// slot holds (the gather) and the slot holding a grid token (the reverse). An Axes policy turns
// the geometry into each axis's padding and roll: ContractAxes reads it as the ABI defines it, and
// each mutant in this folder gets one of them wrong, which is where such bugs live.
// Compiled for the host too: tests/cases/pangu/window_index_test.cpp holds it to the map the
// contract generates. Geometry is any type with size[3], window[3], pad_before[3] and shift.
#pragma once

#include "layoutcheck/platform/bf16.h"  // LC_HOST_DEVICE

namespace port {

// One grid axis in the padded, rolled partition; shift in slots.
struct Axis {
  long long size, window, padded, pad_before, shift;
  LC_HOST_DEVICE long long blocks() const { return padded / window; }
  // Where grid index i sits on the padded axis: (i + pad_before - shift) mod padded.
  LC_HOST_DEVICE long long position_of(long long index) const {
    const long long position = (index + pad_before - shift) % padded;
    return position < 0 ? position + padded : position;
  }
  // The grid index at a padded position, or -1 where the position is padding.
  LC_HOST_DEVICE long long index_at(long long position) const {
    const long long index = (position + shift) % padded - pad_before;
    return index >= 0 && index < size ? index : -1;
  }
};

// The axes z, lat, lon.
struct Partition {
  Axis axis[3];
};

// The partition as the ABI defines the geometry: padded to whole windows, pad_before slots before
// the grid, rolled by half a window when shifted.
struct ContractAxes {
  template <class Geometry>
  LC_HOST_DEVICE static Axis axis(const Geometry& geometry, int a) {
    const long long window = geometry.window[a];
    const long long padded = (geometry.size[a] + window - 1) / window * window;
    return {geometry.size[a], window, padded, geometry.pad_before[a],
            geometry.shift * (window / 2) % padded};
  }
};

template <class Axes, class Geometry>
LC_HOST_DEVICE inline Partition partition(const Geometry& geometry) {
  Partition p{};
  for (int a = 0; a < 3; ++a) p.axis[a] = Axes::axis(geometry, a);
  return p;
}

// Window (lon-block, z-block, lat-block), then (z, lat, lon) within it.
LC_HOST_DEVICE inline long long slot_at(const Partition& p, const long long (&position)[3]) {
  const Axis &z = p.axis[0], &lat = p.axis[1], &lon = p.axis[2];
  const long long window =
      (position[2] / lon.window * z.blocks() + position[0] / z.window) * lat.blocks() +
      position[1] / lat.window;
  return window * (z.window * lat.window * lon.window) +
         ((position[0] % z.window) * lat.window + position[1] % lat.window) * lon.window +
         position[2] % lon.window;
}

// The grid token (row-major z, lat, lon) that `slot` holds, or -1 for a padding slot.
LC_HOST_DEVICE inline long long token_of_slot(const Partition& p, long long slot) {
  const Axis &z = p.axis[0], &lat = p.axis[1], &lon = p.axis[2];
  long long rest = slot;
  const long long inner_lon = rest % lon.window;
  rest /= lon.window;
  const long long inner_lat = rest % lat.window;
  rest /= lat.window;
  const long long inner_z = rest % z.window;
  rest /= z.window;
  const long long block_lat = rest % lat.blocks();
  rest /= lat.blocks();
  const long long block_z = rest % z.blocks();
  const long long block_lon = rest / z.blocks();
  const long long iz = z.index_at(block_z * z.window + inner_z);
  const long long ilat = lat.index_at(block_lat * lat.window + inner_lat);
  const long long ilon = lon.index_at(block_lon * lon.window + inner_lon);
  if (iz < 0 || ilat < 0 || ilon < 0) return -1;
  return (iz * lat.size + ilat) * lon.size + ilon;
}

// The slot holding grid token `token`.
LC_HOST_DEVICE inline long long slot_of_token(const Partition& p, long long token) {
  const Axis &z = p.axis[0], &lat = p.axis[1], &lon = p.axis[2];
  const long long position[3] = {z.position_of(token / (lat.size * lon.size)),
                                 lat.position_of(token / lon.size % lat.size),
                                 lon.position_of(token % lon.size)};
  return slot_at(p, position);
}

}  // namespace port
