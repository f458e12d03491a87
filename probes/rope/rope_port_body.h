// Shared by the RoPE ports in this folder: one thread per (token, head, pair), grid-stride over
// both, so any launch geometry covers every pair (wave-size agnostic: only blockDim and gridDim
// are used). fp32 math, bf16 through the project's conversions: bitwise reproducible.
// Pairing::offsets(p, D, first, second) gives the two elements of pair p within a head;
// Pairing::x_row(args, t) the start of token t's row of x.
#pragma once

#include "layoutcheck/platform/bf16.h"
#include "rope_abi.h"

namespace port {

struct RowStrides {
  __device__ static long long x_row(const layoutcheck::RopeApplyArgs& args, long long t) {
    return t * args.x_row_stride;
  }
};

template <class Pairing>
__device__ inline void rope_apply(const layoutcheck::RopeApplyArgs& args) {
  const long long D = args.head_dim;
  const long long P = D / 2;
  const long long pairs = args.heads * P;
  const long long threads =
      static_cast<long long>(gridDim.x) * blockDim.x * blockDim.y;
  const long long first = (static_cast<long long>(blockIdx.x) * blockDim.y + threadIdx.y) *
                              blockDim.x + threadIdx.x;
  if (first >= pairs) return;  // out-of-range threads
  for (long long t = blockIdx.y; t < args.tokens; t += gridDim.y) {
    const long long pos = args.positions[t];
    const float* table = args.cos_sin + pos * args.cos_sin_row_stride;
    const unsigned short* x = args.x + Pairing::x_row(args, t);
    unsigned short* out = args.out + t * args.out_row_stride;
    for (long long i = first; i < pairs; i += threads) {
      const long long h = i / P;
      const long long p = i % P;
      long long a = 0, b = 0;
      Pairing::offsets(p, D, a, b);
      a += h * D;
      b += h * D;
      const float x0 = layoutcheck::bf16_to_float(x[a]);
      const float x1 = layoutcheck::bf16_to_float(x[b]);
      const float c = table[p];
      const float s = table[P + p];
      out[a] = layoutcheck::float_to_bf16(x0 * c - x1 * s);
      out[b] = layoutcheck::float_to_bf16(x1 * c + x0 * s);
    }
  }
}

// Half-split pairs (GPT-NeoX, rotate_half): p and p + D/2.
struct HalfSplit : RowStrides {
  __device__ static void offsets(long long p, long long D, long long& a, long long& b) {
    a = p;
    b = p + D / 2;
  }
};

// Interleaved pairs (GPT-J): 2p and 2p + 1.
struct Interleaved : RowStrides {
  __device__ static void offsets(long long p, long long, long long& a, long long& b) {
    a = 2 * p;
    b = 2 * p + 1;
  }
};

}  // namespace port
