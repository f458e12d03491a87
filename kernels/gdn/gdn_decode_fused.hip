// Instantiations and host launchers of the fused decode kernel (gdn_decode_fused.h): upstream
// (InterleavedLayout) and native (FlatLayout), each for both state layouts.
#include <cstdint>
#include <string>

#include "gdn_decode_fused.h"
#include "gdn_kernels.h"
#include "gdn_state_walks.h"
#include "layoutcheck/gpu/check.h"

namespace layoutcheck::kernels {
namespace {

// The fast-path kernels assume the state slice of a head is affine in (k, v) with the innermost
// index contiguous and 16-byte aligned; check that on the contract's offset function itself.
template <class State>
bool state_is_vectorisable(const GdnDecodeArgs& args) {
  const GdnDims d = dims_of(args);
  if (args.state_row_stride % 4 != 0) return false;
  if (reinterpret_cast<std::uintptr_t>(args.state) % 16 != 0) return false;
  for (int hv : {0, d.HV - 1}) {
    const int base = State::offset(d, hv, 0, 0);
    const int key_step = State::offset(d, hv, 1, 0) - base;
    const int value_step = State::offset(d, hv, 0, 1) - base;
    const int inner = State::kValueInnermost ? value_step : key_step;
    if (inner != 1 || base % 4 != 0 || (State::kValueInnermost ? key_step : value_step) % 4 != 0)
      return false;
    for (int key : {0, 1, d.K - 1})
      for (int v : {0, 1, d.V - 1})
        if (State::offset(d, hv, key, v) != base + key * key_step + v * value_step) return false;
  }
  return true;
}

template <class Layout, class State, class Walk>
void launch_fast(const GdnDecodeArgs& args, StateSplit split, hipStream_t stream,
                 LaunchOrder launch) {
  static_assert(
      kFastValueDim / Walk::kColumns <= kMaxTilesPerHead,
      "the workspace (fused_workspace_floats) holds kMaxTilesPerHead norm partials a head");
  const dim3 grid = head_block_grid(args, kFastValueDim / Walk::kColumns);
  launch_kernel(launch,
                gdn_decode_fused_fast<Layout, Walk, kFastKeyDim, kFastValueDim, kFastConvWidth>,
                grid, Walk::kThreads, 0, stream, args);
  LC_GPU_CHECK_LAUNCH((std::string("gdn_decode_fused_fast<") + Layout::kName + ", " + State::kName +
                       ", " + state_split_name(split) + ">")
                          .c_str());
}

template <class Layout, class State>
void launch_generic(const GdnDecodeArgs& args, hipStream_t stream, LaunchOrder launch) {
  const long long shared_bytes = generic_shared_bytes(args.K, args.V);
  if (shared_bytes > 48 * 1024)
    throw gpu::GpuError("gdn_decode_fused_generic: K = " + std::to_string(args.K) +
                        ", V = " + std::to_string(args.V) +
                        " need more than 48 KiB of shared memory; sizes this large need a tiled "
                        "kernel");
  const dim3 grid = head_block_grid(args, 1);
  launch_kernel(launch, gdn_decode_fused_generic<Layout, State>, grid, kGenericThreads,
                static_cast<unsigned>(shared_bytes), stream, args);
  LC_GPU_CHECK_LAUNCH(
      (std::string("gdn_decode_fused_generic<") + Layout::kName + ", " + State::kName + ">")
          .c_str());
}

template <class Layout, class State>
void launch_for(const GdnDecodeArgs& args, StateSplit split, bool fast, hipStream_t stream,
                LaunchOrder launch) {
  if (!fast) return launch_generic<Layout, State>(args, stream, launch);
  visit_state_walk<State>(split, [&](auto walk) {
    launch_fast<Layout, State, typename decltype(walk)::type>(args, split, stream, launch);
  });
}

void require_valid(const GdnDecodeArgs& args) {
  const bool sizes_ok = args.batch > 0 && args.H > 0 && args.HV > 0 && args.K > 0 && args.V > 0 &&
                        args.W >= 2 && args.HV % args.H == 0;
  if (!sizes_ok)
    throw gpu::GpuError(
        "GDN decode launch: invalid sizes (need batch, H, HV, K, V > 0, W >= 2, "
        "HV % H == 0)");
  // 32-bit offsets inside a row, grid limits on HV and batch.
  const long long row = 2 * args.H * args.K + 2 * args.HV * args.V + args.HV * args.K * args.V;
  if (row >= (1LL << 31) || args.HV > 65535 || args.batch > 65535)
    throw gpu::GpuError("GDN decode launch: sizes beyond the kernels' 32-bit row offsets or grid");
  if (args.sync_counter_count < gdn_sync_counters(args.batch, args.H, args.HV) ||
      args.workspace_floats < gdn_workspace_floats(args.batch, args.H, args.HV, args.K, args.V))
    throw gpu::GpuError(
        "GDN decode launch: workspace smaller than gdn_sync_counters / "
        "gdn_workspace_floats require");
}

}  // namespace

long long gdn_sync_counters(long long batch, long long H, long long HV) {
  return fused_sync_counters(batch, H, HV);
}

long long gdn_workspace_floats(long long batch, long long /*H*/, long long HV, long long /*K*/,
                               long long V) {
  return fused_workspace_floats(batch, HV, V);
}

const char* state_split_name(StateSplit split) {
  switch (split) {
    case StateSplit::whole:
      return "whole";
    case StateSplit::halves:
      return "halves";
    case StateSplit::quarters:
      return "quarters";
    case StateSplit::streamed:
      return "streamed";
    case StateSplit::whole_deferred:
      return "whole-deferred";
    case StateSplit::whole_early:
      return "whole-early";
  }
  return "?";
}

const std::vector<StateSplit>& all_state_splits() {
  static const std::vector<StateSplit> splits = {
      StateSplit::whole,    StateSplit::halves,         StateSplit::quarters,
      StateSplit::streamed, StateSplit::whole_deferred, StateSplit::whole_early};
  return splits;
}

// The choices and their timings are in kernels/gdn/DESIGN.md. One 256-thread block per head
// holding the whole 64 KB slice in flight (16 loads a thread, two blocks per multiprocessor) is
// the fastest at every batch timed: no cross-block norm handshake, 128 KB per multiprocessor in
// flight. When every head's block has a multiprocessor to itself, the state loads wait for the
// staging (faster at batch 1, slower at batch 8).
// Launched overlapped, a head's state streams in during the previous kernel's tail when its block
// starts early (whole_early); with more heads than multiprocessors most blocks start only as
// others leave, and the serial choice stands.
StateSplit choose_fused_split(const GdnDecodeArgs& args, int multiprocessors, LaunchOrder launch) {
  const bool one_wave = args.batch * args.HV <= multiprocessors;
  if (one_wave)
    return launch == LaunchOrder::overlapped ? StateSplit::whole_early : StateSplit::whole_deferred;
  return StateSplit::whole;
}

// The baseline's recurrent kernel has no norm to combine.
StateSplit choose_recurrent_split(const GdnDecodeArgs& /*args*/, int /*multiprocessors*/) {
  return StateSplit::halves;
}

bool fused_fast_path(const GdnDecodeArgs& args, StateOrder order) {
  if (args.K != kFastKeyDim || args.V != kFastValueDim || args.W != kFastConvWidth) return false;
  return order == StateOrder::hkv ? state_is_vectorisable<StateHkv>(args)
                                  : state_is_vectorisable<StateHvk>(args);
}

void launch_gdn_decode_fused(QkvzLayout layout, StateOrder order, const GdnDecodeArgs& args,
                             StateSplit split, hipStream_t stream, LaunchOrder launch) {
  require_valid(args);
  const bool fast = fused_fast_path(args, order);
  if (layout == QkvzLayout::flat) {
    if (order == StateOrder::hkv)
      launch_for<FlatLayout, StateHkv>(args, split, fast, stream, launch);
    else
      launch_for<FlatLayout, StateHvk>(args, split, fast, stream, launch);
  } else {
    if (order == StateOrder::hkv)
      launch_for<InterleavedLayout, StateHkv>(args, split, fast, stream, launch);
    else
      launch_for<InterleavedLayout, StateHvk>(args, split, fast, stream, launch);
  }
}

}  // namespace layoutcheck::kernels
