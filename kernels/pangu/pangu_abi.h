// The Pangu kernel ABIs: the argument structs a ported Pangu kernel takes by value, compiled at run
// time by `layoutcheck run` (probes/pangu/*.yaml name them). Packed on the host by
// src/cases/pangu/gpu/*_abi_binding.cpp. 8-byte pointers and 8-byte integers only, so that the
// host compiler, hipcc, nvcc, hipRTC and NVRTC all see the same layout (no padding). Every buffer
// is fp16 bit patterns; a token is `channels` contiguous elements.
//
// pangu_window_gather_v1 (cases pangu-window-gather, pangu-layernorm-gather):
//   from = the token grid x, [batch][from_row_stride], token (z, lat, lon) at
//          ((z * LAT + lat) * LON + lon) * channels;
//   to   = windows, [batch][to_row_stride], slot s at s * channels;
//   map  = [slots]: slot s copies grid token map[s] (LayerNorm'd, for pangu-layernorm-gather),
//          or writes zeros where map[s] == -1. The map is the one layoutcheck generates from the
//          model's windows contract (contracts/pangu/windows*.yaml).
// pangu_window_reverse_v1 (case pangu-window-reverse):
//   from = windows, to = the token grid x, map = [tokens]: grid token t copies slot map[t].
// In both, `geometry` describes the partition the map encodes, so a port may compute the indices
// itself instead of reading the map: each axis a of the grid (z, lat, lon) is padded to
// padded[a] = ceil(size[a] / window[a]) * window[a] slots, pad_before[a] of them before the
// grid; with shift == 1 the padded axis is rolled by window[a] / 2 (torch.roll by -window[a]/2), so
// grid index i sits at padded position p = (i + pad_before[a] - shift * (window[a] / 2)) mod
// padded[a]; then p = block * window[a] + inner, and the slot is
//   ((block_lon * NZ + block_z) * NH + block_lat) * (WZ * WH * WW)
//     + (inner_z * WH + inner_lat) * WW + inner_lon,      N_ = padded[a] / window[a].
//
// pangu_layer_norm_v1 (case pangu-layernorm): out[r] = LayerNorm(x[r]) over `width` channels, no
//   affine, epsilon 1e-5, for every row r < rows; statistics in fp32 at least.
// pangu_add_layer_norm_v1 (case pangu-add-layernorm): residual_out[r] = fp16(residual[r] +
//   branch[r]) element by element, then out[r] = LayerNorm(residual_out[r]): the statistics are
//   those of the rounded sum, as the framework's separate fp16 add leaves it.
#pragma once

#include <cstdint>

namespace layoutcheck {

// Bumped when a member changes; a manifest names the ABI it was written for.
#define LAYOUTCHECK_PANGU_WINDOW_GATHER_ABI "pangu_window_gather_v1"
#define LAYOUTCHECK_PANGU_WINDOW_REVERSE_ABI "pangu_window_reverse_v1"
#define LAYOUTCHECK_PANGU_LAYER_NORM_ABI "pangu_layer_norm_v1"
#define LAYOUTCHECK_PANGU_ADD_LAYER_NORM_ABI "pangu_add_layer_norm_v1"

// The window partition, from the windows contract's symbols; axes in the order z, lat, lon.
struct PanguWindowGeometry {
  long long size[3];        // Z, LAT, LON
  long long window[3];      // WZ, WH, WW
  long long pad_before[3];  // PZ_BEFORE, PH_BEFORE, PW_BEFORE: padding slots before the grid
  long long shift;          // SHIFT: 1 rolls every padded axis by half its window, 0 not at all
};

struct PanguWindowArgs {
  const std::uint16_t* from;  // fp16, [batch][from_row_stride]
  std::uint16_t* to;          // fp16, [batch][to_row_stride]
  const int* map;             // per token of `to`: the token of `from` it copies, or -1
  long long from_row_stride;  // elements between batch rows of from
  long long to_row_stride;    // elements between batch rows of to
  long long batch;            // rows of from and of to
  long long tokens;           // grid tokens per batch row: Z * LAT * LON
  long long slots;            // window slots per batch row: the padded grid's volume
  long long channels;         // C: elements per token
  PanguWindowGeometry geometry;
};

struct PanguLayerNormArgs {
  const std::uint16_t* x;  // fp16, [rows][x_row_stride]
  std::uint16_t* out;      // fp16, [rows][out_row_stride]
  long long x_row_stride;  // elements between rows
  long long out_row_stride;
  long long rows;
  long long width;  // C: channels per row, contiguous
};

struct PanguAddLayerNormArgs {
  const std::uint16_t* residual;  // fp16, [rows][residual_row_stride]
  const std::uint16_t* branch;    // fp16, [rows][branch_row_stride]
  std::uint16_t* residual_out;    // fp16, [rows][residual_out_row_stride]
  std::uint16_t* out;             // fp16, [rows][out_row_stride]
  long long residual_row_stride;
  long long branch_row_stride;
  long long residual_out_row_stride;
  long long out_row_stride;
  long long rows;
  long long width;  // C: channels per row, contiguous
};

}  // namespace layoutcheck
