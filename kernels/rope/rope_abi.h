// The RoPE apply kernel ABI: the one argument struct a ported RoPE kernel takes by value, compiled
// at run time by `layoutcheck run` (probes/rope/*.yaml name it as abi: rope_apply_v1). Packed on
// the host by src/cases/rope/gpu/rope_abi_binding.cpp. 8-byte pointers and 8-byte integers only,
// so that the host compiler, hipcc, nvcc, hipRTC and NVRTC all see the same layout (no padding).
//
// For every token t < tokens, head h < heads and pair p < head_dim / 2, the kernel rotates the
// pair of x that the layout it was built for pairs (half-split: h*D + p and h*D + p + D/2;
// interleaved: h*D + 2p and h*D + 2p + 1) by the angle of pair p at position positions[t]:
//   out0 = x0*cos - x1*sin,  out1 = x1*cos + x0*sin,
//   cos = cos_sin[pos][p],  sin = cos_sin[pos][P + p]
// and writes out in the same layout (contracts/rope/*.yaml).
#pragma once

#include <cstdint>

namespace layoutcheck {

// Bumped when a member changes; a manifest names the ABI it was written for.
#define LAYOUTCHECK_ROPE_APPLY_ABI "rope_apply_v1"

struct RopeApplyArgs {
  const std::uint16_t* x;    // bf16 bit patterns, [tokens][x_row_stride]
  std::uint16_t* out;        // bf16 bit patterns, [tokens][out_row_stride]
  const int* positions;      // [tokens], each a row of cos_sin
  const float* cos_sin;      // fp32 [positions][cos_sin_row_stride]: COS[P] then SIN[P]
  long long x_row_stride;    // elements between tokens of x
  long long out_row_stride;  // elements between tokens of out
  long long cos_sin_row_stride;
  long long tokens;
  long long heads;     // H
  long long head_dim;  // D, even; P = D / 2 pairs per head
};

}  // namespace layoutcheck
