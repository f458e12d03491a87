#include "cases/pangu/gpu/window_abi_binding.h"

#include <string>

#include "cases/pangu/window_map.h"
#include "kernels/pangu/pangu_abi.h"
#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck::gpu {
namespace {

// The partition as the kernel's claimed windows contract declares it: its own symbols, so a port
// computing its indices follows the contract it claims, as one reading the map follows the map.
PanguWindowGeometry window_geometry(const SymbolTable& symbols, const char* abi) {
  PanguWindowGeometry geometry{};
  const char* sizes[3] = {"Z", "LAT", "LON"};
  const char* windows[3] = {"WZ", "WH", "WW"};
  const char* before[3] = {"PZ_BEFORE", "PH_BEFORE", "PW_BEFORE"};
  for (int axis = 0; axis < 3; ++axis) {
    geometry.size[axis] = required_symbol(symbols, sizes[axis], abi);
    geometry.window[axis] = required_symbol(symbols, windows[axis], abi);
    geometry.pad_before[axis] = required_symbol(symbols, before[axis], abi);
  }
  geometry.shift = required_symbol(symbols, "SHIFT", abi);
  return geometry;
}

std::int64_t padded_volume(const PanguWindowGeometry& geometry) {
  std::int64_t volume = 1;
  for (int axis = 0; axis < 3; ++axis)
    volume *= (geometry.size[axis] + geometry.window[axis] - 1) / geometry.window[axis] *
              geometry.window[axis];
  return volume;
}

// from -> to through the map: the gather reads the grid x into windows, the reverse windows into x.
AbiBinding window_binding(const char* abi, const char* from, const char* to, bool map_per_slot) {
  AbiBinding binding;
  binding.abi = abi;
  binding.pack = [abi, from, to, map_per_slot](const DeviceBufferSet& device, const BufferSet& host,
                                               const SymbolTable& symbols) {
    PanguWindowArgs args{};
    args.from = static_cast<const std::uint16_t*>(device.data(from));
    args.to = static_cast<std::uint16_t*>(device.data(to));
    args.map = static_cast<const int*>(device.data(pangu::kMapBuffer));
    args.from_row_stride = host.at(from).row_stride;
    args.to_row_stride = host.at(to).row_stride;
    args.batch = host.at(from).rows;
    args.geometry = window_geometry(symbols, abi);
    args.tokens = args.geometry.size[0] * args.geometry.size[1] * args.geometry.size[2];
    args.slots = padded_volume(args.geometry);
    args.channels = required_symbol(symbols, "C", abi);
    // The map was generated from the model's windows contract; a claim of another grid would
    // index past it.
    const std::int64_t entries = host.at(pangu::kMapBuffer).elements();
    const std::int64_t expected = map_per_slot ? args.slots : args.tokens;
    if (entries != expected)
      throw InputError(Diagnostic{
          SourceLocation{}, Severity::error, "abi",
          std::string(abi) + ": the map has " + std::to_string(entries) + " entries, the port's " +
              "claimed windows contract has " + std::to_string(expected) +
              (map_per_slot ? " slots" : " tokens"),
          "claim the grid and windows the model uses (the same Z, LAT, LON and windows)"});
    return argument_bytes(args);
  };
  return binding;
}

}  // namespace

AbiBinding pangu_window_gather_abi_binding() {
  return window_binding(LAYOUTCHECK_PANGU_WINDOW_GATHER_ABI, "x", "windows", true);
}

AbiBinding pangu_window_reverse_abi_binding() {
  return window_binding(LAYOUTCHECK_PANGU_WINDOW_REVERSE_ABI, "windows", "x", false);
}

}  // namespace layoutcheck::gpu
