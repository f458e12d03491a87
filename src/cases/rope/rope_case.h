// Rotary position embedding as a case (layoutcheck/cases/case.h). Its porting bug is the pairing:
// interleaved pairs (GPT-J, Meta's original llama: pair p = elements 2p, 2p+1) against half-split
// pairs (GPT-NeoX, Hugging Face rotate_half: pair p = elements p, p + D/2). Same shape, dtype and
// element count; a kernel built for one rotates the wrong pairs of the other.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

std::shared_ptr<const Case> make_rope_case();

}  // namespace layoutcheck
