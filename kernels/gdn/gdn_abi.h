// The GDN decode kernel ABI: the one argument struct every GDN decode kernel takes by value —
// the shipped fused kernels and any ported kernel compiled at run time by `layoutcheck run`.
// Documented in kernels/gdn/ABI.md. Plain C++ without standard headers, so that the host compiler,
// hipcc, nvcc, hipRTC and NVRTC all see the same struct with the same layout (8-byte pointers and
// 8-byte integers only: no padding differences between host and device).
#pragma once

namespace layoutcheck {

// Bumped when a member changes; a manifest names the ABI it was written for.
#define LAYOUTCHECK_GDN_DECODE_ABI "gdn_decode_v1"

struct GdnDecodeArgs {
  // ---- activations of one decode step (T = 1), bf16 bit patterns ----
  // qkvz and ba rows are laid out by the contracts the model's projections produce; the kernel's
  // manifest names the layout it expects (contracts/gdn/*.yaml).
  const unsigned short* qkvz;  // [batch][qkvz_row_stride]
  const unsigned short* ba;    // [batch][ba_row_stride]
  // Causal-conv state, updated in place: [batch][C][W-1], channel order [Q all | K all | V all]
  // (contracts/gdn/conv_state.yaml), tap 0 the oldest raw input. C = 2*H*K + HV*V.
  unsigned short* conv_state;
  // Recurrent state, fp32, updated in place: [batch][state_row_stride], each row laid out by the
  // state contract ([HV,K,V] in state.hkv.yaml or [HV,V,K] in state.hvk.yaml).
  float* state;
  // Output after the gated RMSNorm: [batch][HV][V] bf16 (contracts/gdn/gdn_out.yaml).
  unsigned short* out;

  // ---- per-layer parameters ----
  const unsigned short* conv_weight;  // [C][W] bf16, tap W-1 multiplies the newest input
  const float* A_log;                 // [HV]
  const float* dt_bias;               // [HV]
  const unsigned short* norm_weight;  // [V] bf16, used directly (no 1 + w)

  // ---- workspace the caller provides (see ABI.md) ----
  // sync_counters: sync_counter_count ints, zero before the first launch; a kernel that uses them
  // must leave them zero again when it finishes. workspace: workspace_floats floats, no contents
  // guaranteed.
  int* sync_counters;
  float* workspace;
  long long sync_counter_count;
  long long workspace_floats;

  // ---- sizes ----
  long long batch;
  long long H;                 // key heads
  long long HV;                // value heads; value head hv uses key head hv / (HV / H)
  long long K;                 // key head dim
  long long V;                 // value head dim
  long long W;                 // conv width
  long long qkvz_row_stride;   // elements between batch rows
  long long ba_row_stride;     // elements between batch rows
  long long state_row_stride;  // elements between batch rows
};

}  // namespace layoutcheck
