// Deliberately broken CPU kernels: each claims to read a set of layouts and gets one thing wrong
// (design brief section 6). The probe tests prove each is caught with the right diagnosis; the
// GPU tests port the same bugs to HIP.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cases/gdn/layouts.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

enum class MutantKind {
  q_k_swapped,       // reads Q from K's segment and K from Q's
  b_a_swapped,       // reads B from A's segment and A from B's
  key_head_modulo,   // value head hv uses key head hv % H instead of hv / G
  v_head_shifted,    // V read one head's stride too far: V[hv] from where V[hv+1] is
  z_from_v,          // Z read from V's segment
  state_transposed,  // the state read (and written) in the other order than claimed
  row_stride_short,  // qkvz batch rows read one element too close together
  l2norm_skipped,    // q and k used without l2 normalisation: a numeric bug, not a layout one
};

struct Mutant {
  MutantKind kind;
  std::string name;         // "q_k_swapped"
  std::string description;  // what it gets wrong
  GdnBuffer buffer;         // the buffer whose probe shows the bug
  std::unique_ptr<GdnRunner> kernel;
};

std::vector<MutantKind> all_mutant_kinds();

struct MutantInfo {
  std::string name;
  std::string description;
  GdnBuffer buffer;
};
MutantInfo describe_mutant(MutantKind kind);

// A CPU model of a kernel claiming to read `claimed`, broken as `kind` says.
// @pre validate_gdn_layouts(claimed, shape) passes; state_transposed needs K == V.
Mutant make_mutant(MutantKind kind, const GdnShape& shape, const GdnLayouts& claimed);

}  // namespace layoutcheck
