// Host entry points of the shipped GDN decode kernels and adapters. Every launch is checked
// (a failure throws gpu::GpuError naming the kernel); all work goes on the given stream so that
// a whole path can be captured into one graph.
#pragma once

#include <vector>

#include "gdn_abi.h"
#include "launch_order.h"
#include "cases/gdn/standard_layouts.h"  // StateOrder
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

// The qkvz/ba layout a fused kernel is built for: interleaved = Qwen3-Next (the upstream kernel),
// flat = Qwen3.5 (the native kernel).
enum class QkvzLayout { flat, interleaved };
// The state layout is layoutcheck::StateOrder: hkv = [HV,K,V] (state.hkv.yaml), hvk = [HV,V,K]
// (state.hvk.yaml).

// Workspace every fused or baseline launch may use (ABI.md): sync counters zeroed once, floats.
long long gdn_sync_counters(long long batch, long long H, long long HV);
long long gdn_workspace_floats(long long batch, long long H, long long HV, long long K,
                               long long V);

// How the fast path covers one value head's K x V state:
//   whole / halves / quarters: 1, 2 or 4 blocks per head, each holding its slice in registers all
//     at once (the fused kernel then combines the RMSNorm of a head through the workspace);
//   streamed: one block per head streaming the slice through in column chunks, the next chunk in
//     flight while the current one is updated;
//   whole_deferred: as whole, but the block issues its state loads only once its staged inputs
//     (conv state, weights, activations) are back, so that their scattered loads are not served
//     behind every block's state stream (kernels/gdn/DESIGN.md);
//   whole_early: as whole, but the fused kernel issues its state loads (and its conv state and
//     weights) before it waits for the previous kernel, and prefetches the step's inputs into L2:
//     launched overlapped, the state streams in while that kernel finishes (launch_order.h,
//     kernels/gdn/DESIGN.md). The recurrent kernel loads its state before
//     the wait in every split but whole_deferred, so there whole_early is whole.
enum class StateSplit { whole, halves, quarters, streamed, whole_deferred, whole_early };
// "whole", "halves", "quarters", "streamed", "whole-deferred", "whole-early"
const char* state_split_name(StateSplit split);
const std::vector<StateSplit>& all_state_splits();

// The split for the fused kernel and for the baseline's recurrent kernel, from measurements
// (kernels/gdn/DESIGN.md); only the generic kernel runs off the fast path, whatever the split.
StateSplit choose_fused_split(const GdnDecodeArgs& args, int multiprocessors, LaunchOrder launch);
StateSplit choose_recurrent_split(const GdnDecodeArgs& args, int multiprocessors);

// True when the compile-time fast path (K = V = 128, W = 4, 16-byte state access) applies to these
// arguments; otherwise the generic kernel runs.
bool fused_fast_path(const GdnDecodeArgs& args, StateOrder order);

// Every launcher below takes a LaunchOrder (launch_order.h). Overlapped, a kernel reads its state,
// conv state and weights before the previous kernel on the stream has finished.
// @pre overlapped only when the previous kernel writes none of those.

// One fused decode step.
// @pre args valid (sizes positive, HV % H == 0, W >= 2, workspace as above).
void launch_gdn_decode_fused(QkvzLayout layout, StateOrder order, const GdnDecodeArgs& args,
                             StateSplit split, hipStream_t stream,
                             LaunchOrder launch = LaunchOrder::serial);

// ---- baseline: the production path on the flat layout, four kernels ----
// Intermediates as a production framework keeps them: conv output fp32 (the state depends on
// it), g and beta fp32, the recurrent output o in bf16 before the norm.
struct BaselineBuffers {
  float* conv_out = nullptr;    // [batch][C]
  float* g = nullptr;           // [batch][HV]
  float* beta = nullptr;        // [batch][HV]
  unsigned short* o = nullptr;  // [batch][HV][V] bf16
};
void launch_gdn_baseline_conv(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                              hipStream_t stream, LaunchOrder launch = LaunchOrder::serial);
void launch_gdn_baseline_gating(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                                hipStream_t stream, LaunchOrder launch = LaunchOrder::serial);
void launch_gdn_baseline_recurrent(StateOrder order, const GdnDecodeArgs& args,
                                   const BaselineBuffers& buffers, StateSplit split,
                                   hipStream_t stream, LaunchOrder launch = LaunchOrder::serial);
void launch_gdn_baseline_gated_rmsnorm(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                                       hipStream_t stream,
                                       LaunchOrder launch = LaunchOrder::serial);

// ---- hand-written adapters: Qwen3.5 flat rows -> Qwen3-Next interleaved rows ----
// qkvz: per key head four contiguous runs (q, k, the group's v, the group's z), copied 16 bytes at
// a time when sizes and alignment allow. ba: per key head the group's b then a.
void launch_adapt_qkvz_flat_to_interleaved(const unsigned short* flat, long long flat_row_stride,
                                           unsigned short* interleaved,
                                           long long interleaved_row_stride, long long batch,
                                           long long H, long long HV, long long K, long long V,
                                           hipStream_t stream,
                                           LaunchOrder launch = LaunchOrder::serial);
void launch_adapt_ba_flat_to_interleaved(const unsigned short* flat, long long flat_row_stride,
                                         unsigned short* interleaved,
                                         long long interleaved_row_stride, long long batch,
                                         long long H, long long HV, hipStream_t stream,
                                         LaunchOrder launch = LaunchOrder::serial);

}  // namespace layoutcheck::kernels
