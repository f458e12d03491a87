// A mutant: correct rotations, then one bf16 written one element past the end of out (an
// off-by-one in a tail loop). The reads are right; the guard zone after out is not.
#include "rope_port_body.h"

extern "C" __global__ void rope_port(layoutcheck::RopeApplyArgs args) {
  port::rope_apply<port::HalfSplit>(args);
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)
    args.out[(args.tokens - 1) * args.out_row_stride + args.heads * args.head_dim] = 0;
}
