// Names for ranges of consecutive logical elements of one field, as a reviewer writes them.
#pragma once

#include <cstdint>
#include <string>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

// @pre 0 <= first <= last < field.elements() (logical row-major linear indices, inclusive).
// @post a box when the range is one: "K[0,0:128]", "V[0:3,0:128]", "B[0:3]", "V[2,5]";
//       otherwise its two ends: "V[2,5]..V[4,9]".
std::string element_range_name(const Field& field, std::int64_t first, std::int64_t last);

}  // namespace layoutcheck
