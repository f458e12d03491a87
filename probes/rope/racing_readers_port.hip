// A mutant: each block stages its token's cos/sin row in shared memory, and its threads read the
// staged values without a barrier after the copy (nor before the next token's copy overwrites
// them). Half-split reads, as the model produces them; whether the race shows in the values
// depends on scheduling, so racecheck (run --sanitize) is what names it.
#include "rope_port_body.h"

extern "C" __global__ void rope_port(layoutcheck::RopeApplyArgs args) {
  extern __shared__ float staged[];  // [2P]: cos, then sin, of the block's token
  const long long D = args.head_dim;
  const long long P = D / 2;
  const long long pairs = args.heads * P;
  const long long block_threads = static_cast<long long>(blockDim.x) * blockDim.y;
  const long long tid = static_cast<long long>(threadIdx.y) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * block_threads;
  const long long first = static_cast<long long>(blockIdx.x) * block_threads + tid;
  for (long long t = blockIdx.y; t < args.tokens; t += gridDim.y) {
    const float* table = args.cos_sin + args.positions[t] * args.cos_sin_row_stride;
    for (long long j = tid; j < 2 * P; j += block_threads) staged[j] = table[j];
    // BUG: __syncthreads() missing here
    const unsigned short* x = args.x + t * args.x_row_stride;
    unsigned short* out = args.out + t * args.out_row_stride;
    for (long long i = first; i < pairs; i += threads) {
      const long long h = i / P;
      const long long p = i % P;
      const long long a = h * D + p, b = a + P;
      const float x0 = layoutcheck::bf16_to_float(x[a]);
      const float x1 = layoutcheck::bf16_to_float(x[b]);
      const float c = staged[p];
      const float s = staged[P + p];
      out[a] = layoutcheck::float_to_bf16(x0 * c - x1 * s);
      out[b] = layoutcheck::float_to_bf16(x1 * c + x0 * s);
    }
  }
}
