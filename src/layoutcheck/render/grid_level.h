// One level of a windowed token grid as cells, the model the grid picture (grid_svg.h) is drawn
// from: a contract that declares `gather:` over a field of dims (levels..., rows, columns, token).
//
// Cell (r, c) is the padded plane's slot at unrolled coordinate (r, c): the real token
// [level..., r - rows.pad_before, c - columns.pad_before] where there is one, else padding. So the
// picture is of the grid itself, not of the rolled positions: lat 0 stays at the top and lon 0 at
// the left, padding is an extra border where the padded axis extends (pad_before top and left,
// pad_after bottom and right), and the roll shows as windows cut by an edge, the same window at
// both ends of an axis.
//
//   const GridLevel cells = grid_level(shifted, 0);  // pangu.windows.shifted, z = 0: 96 x 180
//   cells.window_or_padding(0, 0);                   // -1: lat's pad_before
//   cells.window_or_padding(2, 0);                   // lat 0, lon 0: the last lon block's window
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

// The most cells along either axis of one level: past this a picture is no longer readable, and
// its SVG would run to hundreds of megabytes.
inline constexpr std::int64_t kMaxGridSide = 4096;

struct GridAxis {
  std::string name;  // the contract's dim name, e.g. "lat"
  std::int64_t size = 0, padded = 0, pad_before = 0, pad_after = 0, shift = 0;
  std::int64_t window = 0;          // cells of one window along the axis: the dim's fastest mode
  std::vector<std::int64_t> block;  // per cell along the axis: the window block it falls in
  std::int64_t blocks() const { return window > 0 ? padded / window : 0; }
};

struct GridLevel {
  std::string contract;  // the contract's name
  // Row-major over the level dims' real indices: a plane of their padding (z padded from 5 to 6)
  // holds padding slots alone and is no level.
  std::int64_t level = 0;
  std::int64_t levels = 1;           // the level dims' product (1 for a 2D grid)
  std::string level_label;           // "z = 0"; "" when the grid has no level dims
  std::vector<GridAxis> level_axes;  // the level dims, outermost first
  GridAxis rows, columns;
  // Per cell, row-major: the window its slot is in, numbered in gather order (window k holds the
  // buffer's k-th run of slots when windows are contiguous), and the grid token the slot reads
  // (make_gather_map), -1 for a padding slot.
  std::vector<std::int32_t> window;
  std::vector<std::int32_t> token;
  std::int64_t windows = 0;       // windows this level's cells fall in
  std::int64_t window_slots = 0;  // slots of one window over every grid dim

  std::int64_t cells() const { return rows.padded * columns.padded; }
  std::int64_t window_cells() const { return rows.window * columns.window; }
  std::int64_t real_tokens() const;
  std::int64_t padding_slots() const { return cells() - real_tokens(); }
  // The window of the cell's token, or -1 where the cell is a padding slot.
  std::int32_t window_or_padding(std::int64_t row, std::int64_t column) const;
};

// True when the contract is a grid picture: it declares a gather whose field has at least three
// dims, the last being the gather's token dim.
bool is_grid_contract(const Contract& contract);

// @pre the contract passed lint's layout checks.
// @post throws InputError (rule "render") when the contract is not a grid picture or a level's
//       plane has more than kMaxGridSide cells along an axis, InputError (rule "gather") when
//       make_gather_map refuses it, and std::invalid_argument when level is not in [0, levels).
// @post token[cell] == make_gather_map(contract).slots[the cell's slot], and every real token of
//       the level sits at its own unrolled coordinate.
GridLevel grid_level(const Contract& contract, std::int64_t level);

}  // namespace layoutcheck
