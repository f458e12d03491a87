// A mutant: the last pair of the last head is never rotated nor written (a bound of
// heads * P - 1), so two elements of every token's out keep whatever the buffer held.
#include "rope_port_body.h"

extern "C" __global__ void rope_port(layoutcheck::RopeApplyArgs args) {
  layoutcheck::RopeApplyArgs shorter = args;
  // Rotate every pair but the last one of the last head: run the first heads - 1 heads in full,
  // then the last head without its last pair.
  shorter.heads = args.heads - 1;
  port::rope_apply<port::HalfSplit>(shorter);
  const long long D = args.head_dim, P = D / 2, h = args.heads - 1;
  const long long first =
      (static_cast<long long>(blockIdx.x) * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x * blockDim.y;
  for (long long t = blockIdx.y; t < args.tokens; t += gridDim.y) {
    const float* table = args.cos_sin + args.positions[t] * args.cos_sin_row_stride;
    for (long long p = first; p < P - 1; p += threads) {
      const long long a = h * D + p, b = h * D + p + P;
      const float x0 = layoutcheck::bf16_to_float(args.x[t * args.x_row_stride + a]);
      const float x1 = layoutcheck::bf16_to_float(args.x[t * args.x_row_stride + b]);
      args.out[t * args.out_row_stride + a] =
          layoutcheck::float_to_bf16(x0 * table[p] - x1 * table[P + p]);
      args.out[t * args.out_row_stride + b] =
          layoutcheck::float_to_bf16(x1 * table[p] + x0 * table[P + p]);
    }
  }
}
