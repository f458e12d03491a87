// The GDN tests' odd shape: H, HV, K, V, W = 3, 9, 5, 7, 4, so G = 3 and nothing is a power of
// two; a layout bug that a square or power-of-two shape would hide shows here.
#pragma once

#include "cases/gdn/shape.h"

namespace layoutcheck {

inline const GdnShape kOdd{3, 9, 5, 7, 4};

}  // namespace layoutcheck
