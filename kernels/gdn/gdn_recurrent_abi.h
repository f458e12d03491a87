// The GDN recurrent step ABI: the one argument struct a ported recurrent kernel takes by value,
// compiled at run time by `layoutcheck run` (probes/gdn/recurrent_*.yaml name it as
// abi: gdn_recurrent_v1). Packed on the host by src/cases/gdn/gpu/recurrent_abi_binding.cpp.
// 8-byte pointers and 8-byte integers only, so that the host compiler, hipcc, nvcc, hipRTC and
// NVRTC all see the same layout (no padding).
//
// This is the part of a GDN decode step most public kernels implement (fused recurrent gated delta
// rule), without the conv, the l2norm or the gated norm: q and k arrive l2-normalised. For every
// token t < tokens and value head hv < value_heads, with h = hv / (value_heads / key_heads):
//   S     = state[t][hv] * exp(g[t][hv])                 S[i][j], i < key_dim, j < value_dim
//   u[j]  = beta[t][hv] * (v[t][hv][j] - sum_i S[i][j] * k[t][h][i])
//   S    += k[t][h][i] * u[j]                             (the state is written back, in place)
//   o[j]  = sum_i S[i][j] * q[t][h][i] / sqrt(key_dim)    (out[t][hv][j], bf16)
// q, k, v, out and state are laid out as the kernel's contracts say (contracts/gdn/recurrent.*.yaml,
// gdn_out.yaml, state.hkv.yaml or state.hvk.yaml); g and beta are packed [tokens][value_heads].
#pragma once

#include <cstdint>

namespace layoutcheck {

// Bumped when a member changes; a manifest names the ABI it was written for.
#define LAYOUTCHECK_GDN_RECURRENT_ABI "gdn_recurrent_v1"

struct GdnRecurrentArgs {
  const std::uint16_t* q;  // bf16 bit patterns, [tokens][q_row_stride]
  const std::uint16_t* k;  // bf16, [tokens][k_row_stride]
  const std::uint16_t* v;  // bf16, [tokens][v_row_stride]
  const float* g;          // fp32 log decay, [tokens][g_row_stride]
  const float* beta;       // fp32 gate, [tokens][beta_row_stride]
  float* state;            // fp32, one row per sequence, [tokens][state_row_stride], in place
  std::uint16_t* out;      // bf16, [tokens][out_row_stride]
  long long q_row_stride;  // elements between tokens of each buffer
  long long k_row_stride;
  long long v_row_stride;
  long long g_row_stride;
  long long beta_row_stride;
  long long state_row_stride;
  long long out_row_stride;
  long long tokens;
  long long key_heads;    // H
  long long value_heads;  // HV, a multiple of H
  long long key_dim;      // K
  long long value_dim;    // V
};

}  // namespace layoutcheck
