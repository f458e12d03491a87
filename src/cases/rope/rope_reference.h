// The RoPE reference: for every token t, head h and pair p,
//   out[h,p,0] = x0*cos - x1*sin,  out[h,p,1] = x1*cos + x0*sin
// with (x0, x1) = X[h,p,0:2] and cos/sin of pair p at position positions[t], in double, rounded
// to out's dtype. Every element is read and written through the contracts it was built with, so
// the reference through layout C is the CPU model of a kernel built for C; the faults are the
// mutants, broken in the values rather than the layout.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck::rope {

enum class Fault {
  none,
  rotate_backwards,   // sin negated: the rotation by -theta
  positions_ignored,  // the row index used as the position
};

// @post throws InputError (rule "case-layout") when `layouts` cannot describe the buffers.
std::unique_ptr<CaseRunner> make_rope_runner(const CaseLayouts& layouts, Fault fault = Fault::none);

}  // namespace layoutcheck::rope
