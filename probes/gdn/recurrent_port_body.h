// Shared by the gdn_recurrent_v1 ports in this folder: one thread per (sequence, value head, value
// column j), grid-stride over both, so any launch geometry covers every column (wave-size
// agnostic: only blockDim and gridDim are used). A column of the state needs no other column, so
// no thread waits for another. fp32 math, bf16 through the project's conversions.
// Policy::state(hv, i, j, K, V) is the offset of S[hv][i][j] in a state row;
// Policy::key_head(hv, H, HV) the key head value head hv reads.
#pragma once

#include "gdn_recurrent_abi.h"
#include "layoutcheck/platform/bf16.h"

namespace port {

template <class Policy>
__device__ inline void gdn_recurrent(const layoutcheck::GdnRecurrentArgs& args) {
  const long long H = args.key_heads, HV = args.value_heads;
  const long long K = args.key_dim, V = args.value_dim;
  const long long columns = HV * V;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x * blockDim.y;
  const long long first =
      (static_cast<long long>(blockIdx.x) * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const float scale = 1.0f / sqrtf(static_cast<float>(K));
  for (long long t = blockIdx.y; t < args.tokens; t += gridDim.y) {
    const unsigned short* q = args.q + t * args.q_row_stride;
    const unsigned short* k = args.k + t * args.k_row_stride;
    const unsigned short* v = args.v + t * args.v_row_stride;
    float* state = args.state + t * args.state_row_stride;
    for (long long c = first; c < columns; c += threads) {
      const long long hv = c / V;
      const long long j = c % V;
      const long long h = Policy::key_head(hv, H, HV);
      const float decay = expf(args.g[t * args.g_row_stride + hv]);
      const float gate = args.beta[t * args.beta_row_stride + hv];
      float kv = 0.0f;
      for (long long i = 0; i < K; ++i)
        kv += state[Policy::state(hv, i, j, K, V)] * decay *
              layoutcheck::bf16_to_float(k[h * K + i]);
      const float u = gate * (layoutcheck::bf16_to_float(v[hv * V + j]) - kv);
      float o = 0.0f;
      for (long long i = 0; i < K; ++i) {
        float& s = state[Policy::state(hv, i, j, K, V)];
        s = s * decay + layoutcheck::bf16_to_float(k[h * K + i]) * u;
        o += s * layoutcheck::bf16_to_float(q[h * K + i]);
      }
      args.out[t * args.out_row_stride + hv * V + j] = layoutcheck::float_to_bf16(o * scale);
    }
  }
}

// Value head hv reads key head hv / G, G = HV / H value heads per key head.
struct GroupedKeyHeads {
  __device__ static long long key_head(long long hv, long long H, long long HV) {
    return hv / (HV / H);
  }
};

// The state as flash-linear-attention keeps it: [HV, K, V], the value dim innermost.
struct StateHkv : GroupedKeyHeads {
  __device__ static long long state(long long hv, long long i, long long j, long long K,
                                    long long V) {
    return (hv * K + i) * V + j;
  }
};

// The state transposed: [HV, V, K], the key dim innermost.
struct StateHvk : GroupedKeyHeads {
  __device__ static long long state(long long hv, long long i, long long j, long long K,
                                    long long V) {
    return (hv * V + j) * K + i;
  }
};

}  // namespace port
