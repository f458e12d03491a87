// SVG pictures of contracts, the picture a reviewer looks at in a pull request.
//
// One row: physical offsets left to right, each run of offsets that holds one index of the
// outermost dim of one field drawn as one rectangle, coloured by field and labelled with the
// contract's own dim name ("V hv7", "K t3"), the label sized to its rectangle. Two contracts: the
// producer's row above the consumer's; offsets the consumer misreads are hatched red, and a band
// joins them to where the producer really holds the elements the consumer expects there. Runs of
// one move (equal length, each the same step further on both rows: the heads of a field spread
// into groups) are one band with a count ("x15"); each field's misread fraction is on the right
// margin. A range draws only part of the row, at a larger scale.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/diff/read_map.h"

namespace layoutcheck {

// Offsets [begin, end) of a row.
struct OffsetRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

struct SvgOptions {
  double width = 1400;               // px; the row spans the width minus the margins
  std::optional<OffsetRange> range;  // zoom on part of the row; all of it when absent
};

inline constexpr double kMinSvgWidth = 400, kMaxSvgWidth = 20000;

// Throws std::invalid_argument (as every renderer does first) when the width is not a finite
// number from kMinSvgWidth to kMaxSvgWidth: an SVG of width "nan" is no picture.
void check_svg_width(const SvgOptions& options);

// Throws std::invalid_argument unless 0 <= begin < end <= row_size.
void check_svg_range(const SvgOptions& options, std::int64_t row_size);

std::string render_row_svg(const Contract& contract, const SvgOptions& options = {});

// @pre report == diff_contracts(producer, consumer)
std::string render_diff_svg(const Contract& producer, const Contract& consumer,
                            const MisreadReport& report, const SvgOptions& options = {});

}  // namespace layoutcheck
