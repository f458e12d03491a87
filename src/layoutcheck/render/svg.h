// SVG pictures of contracts, the picture a reviewer looks at in a pull request.
//
// One row: physical offsets left to right, each run of offsets that holds one head of one field
// drawn as one rectangle, coloured by field and labelled by head ("V h7": the outermost logical
// index, also for a dim split into modes). Two contracts: the producer's row above the consumer's;
// offsets the consumer misreads are hatched red, and a band joins each of them to where the
// producer really holds the element the consumer expects there.
#pragma once

#include <string>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/diff/read_map.h"

namespace layoutcheck {

struct SvgOptions {
  double width = 1400;  // px; the row spans the width minus the margins
};

inline constexpr double kMinSvgWidth = 400, kMaxSvgWidth = 20000;

// Throws std::invalid_argument (as every renderer does first) when the width is not a finite
// number from kMinSvgWidth to kMaxSvgWidth: an SVG of width "nan" is no picture.
void check_svg_width(const SvgOptions& options);

std::string render_row_svg(const Contract& contract, const SvgOptions& options = {});

// @pre report == diff_contracts(producer, consumer)
std::string render_diff_svg(const Contract& producer, const Contract& consumer,
                            const MisreadReport& report, const SvgOptions& options = {});

}  // namespace layoutcheck
