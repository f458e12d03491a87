// Mutant: the right (half-split) pairing, but x_row_stride ignored: token t's row of x is assumed
// to start at t * H * D (packed rows). Fine while the model's rows are packed; wrong as soon as
// they are padded (a row stride larger than the row), and only in rows after the first.
#include "rope_port_body.h"

namespace port {
struct RowsPacked : HalfSplit {
  __device__ static long long x_row(const layoutcheck::RopeApplyArgs& args, long long t) {
    return t * args.heads * args.head_dim;  // BUG: ignores args.x_row_stride
  }
};
}  // namespace port

extern "C" __global__ void rope_port(layoutcheck::RopeApplyArgs args) {
  port::rope_apply<port::RowsPacked>(args);
}
