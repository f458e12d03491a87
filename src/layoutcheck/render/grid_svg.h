// The picture of one level of a windowed token grid (grid_level.h): the padded rows x columns
// plane, one cell per slot, each token coloured by the window it is gathered into, padding slots
// hatched grey, window borders drawn thick, and a legend line with the level's counts
// ("16380 real tokens, 900 padding slots, 240 windows of 144").
//
//   layoutcheck render contracts/pangu/windows.shifted.yaml -o out.svg --level 0
#pragma once

#include <cstdint>
#include <string>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/render/grid_level.h"
#include "layoutcheck/render/svg.h"

namespace layoutcheck {

// @post throws std::invalid_argument when the width is out of range (check_svg_width).
std::string render_grid_svg(const GridLevel& grid, const SvgOptions& options = {});

// grid_level(contract, level) drawn; throws what grid_level throws.
std::string render_grid_svg(const Contract& contract, std::int64_t level,
                            const SvgOptions& options = {});

}  // namespace layoutcheck
