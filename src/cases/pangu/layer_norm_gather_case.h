// LayerNorm fused with Pangu-Weather's window gather as a case (layoutcheck/cases/case.h): slot s
// of `windows` (contracts/pangu/windows.shifted.yaml by default) holds grid token map[s] of x
// (contracts/pangu/grid.yaml) normalised without affine, padding slots zero; the normalised grid
// is never written whole. The dependence decoder proves each slot reads exactly the channels of
// the one token the contract's map names: a roll on the wrong axes reads other tokens.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

std::shared_ptr<const Case> make_pangu_layer_norm_gather_case();

}  // namespace layoutcheck
