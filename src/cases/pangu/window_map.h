// The window partition as a kernel really performs it: the contract's index map, or the map of
// the contract a faulty kernel's index arithmetic follows (a roll on the wrong axes, the padding
// split on the wrong side, a shift not undone on the way back), and a CPU runner that moves
// tokens by such a map (optionally normalising each, as LayerNorm fused with the gather does),
// and the map as the window ABIs hand it to a port. The Pangu gather cases and their mutants are
// built from these.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layoutcheck/cases/case.h"

namespace layoutcheck::pangu {

enum class WindowFault {
  none,
  shift_on_wrong_axes,  // lat rolled by half the lon window and lon by half lat's
  padding_wrong_side,   // pad // 2 after each axis instead of before (lat 91 -> 96: +3 / +2)
  shift_not_undone,     // the reverse crops the padding but leaves the roll in place
};

// The windows contract whose map a kernel with `fault` really follows.
Contract windows_as_built(Contract windows, WindowFault fault);

// Slot s of `to` (width elements) gets token map[s] of `from`, or zeros where map[s] < 0, for
// every batch row. minus_one_as_token: a -1 is read as token 0 (a kernel that forgets the
// padding protocol). normalise: the token is written LayerNorm'd (pangu/layer_norm.h).
struct TokenMove {
  std::string from, to;
  std::vector<std::int32_t> map;
  std::int64_t width = 0;
  bool minus_one_as_token = false;
  bool normalise = false;
};

std::unique_ptr<CaseRunner> make_token_mover(std::string name, TokenMove move);

// The buffer a window ABI passes a port its map in (kernels/pangu/pangu_abi.h): "map", one int32
// entry per token the port writes. Not laid out by a contract: it is generated from one.
inline constexpr const char* kMapBuffer = "map";
BufferSpec map_buffer_spec(const std::string& description);
HostBuffer map_buffer(const std::vector<std::int32_t>& entries);

}  // namespace layoutcheck::pangu
