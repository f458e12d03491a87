// The fused GDN decode kernel (design §5, one step, T = 1): causal conv + silu, l2norm, gates,
// delta-rule state update and gated RMSNorm in one launch. ONE source; the qkvz/ba layout and the
// state layout are policies (gdn_layouts.h):
//   upstream = gdn_decode_fused_fast<InterleavedLayout, ...>  (expects Qwen3-Next rows)
//   native   = gdn_decode_fused_fast<FlatLayout, ...>         (reads Qwen3.5 rows in place)
// so the port is a one-line change, and every offset comes from a reviewed contract.
//
// Work split (StateSplit, gdn_kernels.h; the state walk, gdn_state_walks.h): block (tile, hv, b)
// owns columns [tile*kColumns, (tile+1)*kColumns) of value head hv of sequence b: its K x kColumns
// state slice is read once and written once. Each block recomputes the key head's q/k conv +
// l2norm (2K channels, cheap next to the state). With several blocks per head (tiles > 1) they
// combine the RMSNorm through the workspace, the last block to finish writing the head's output;
// with one (the whole head in registers, the fastest measured, or streamed through in column
// chunks) no block waits for another.
#pragma once

#include "gdn_decode_common.h"
#include "gdn_state_tile.h"
#include "launch_order.h"

namespace layoutcheck::kernels {

// Workspace a launch with the given tiles needs (ABI.md: sync counters zero before the first
// launch and zero after each).
inline constexpr int kMaxTilesPerHead = 4;
__host__ __device__ inline long long fused_sync_counters(long long batch, long long H,
                                                         long long HV) {
  return batch * (H + HV);
}
__host__ __device__ inline long long fused_workspace_floats(long long batch, long long HV,
                                                            long long V) {
  return batch * HV * (V + kMaxTilesPerHead);
}

// Head's counter of blocks that published their part of the gated RMSNorm.
__device__ inline int* norm_counter(const GdnDecodeArgs& args, const GdnDims& d, long long head) {
  return args.sync_counters + args.batch * d.H + head;
}

// The gated RMSNorm out = o * rsqrt(mean(o^2) + eps) * gate, for columns [v0, v0 + tile) of
// head hv. Every wave sums o^2 over the tile's o itself (as l2norm_qk does: no block barrier).
// With one block per head (tiles == 1) it writes the output and returns -1; with
// `only_storing_waves` the waves past the tile's columns return at once, so their state stores
// start sooner (the overlapped batch-1 kernel, kernels/gdn/DESIGN.md; at batch 8, where blocks
// share multiprocessors, it is slower). With several,
// each block publishes its gated o and its partial sum of o^2 to the workspace and arrives at the
// head's counter; the return value (thread 0's) says how many arrived before, and the last block
// finishes the norm for the whole head in finish_gated_rmsnorm. Publishing before the state is
// stored keeps the fence cheap and lets the atomic's round trip overlap the stores.
// @pre o visible to the whole block.
__device__ inline int gated_rmsnorm(const GdnDecodeArgs& args, const GdnDims& d,
                                    const HeadBlock& block, int v0, int tile, const float* o,
                                    const float* gate, bool only_storing_waves) {
  const int tiles = block.tiles;
  const int wave_start = static_cast<int>(threadIdx.x) - wave::lane_id();
  if (only_storing_waves && tiles == 1 && wave_start >= tile) return -1;
  float sum = 0.0f;
  for (int j = wave::lane_id(); j < tile; j += wave::kWaveSize) sum += o[j] * o[j];
  sum = wave::group_sum<wave::kWaveSize>(sum);
  const long long head = static_cast<long long>(block.b) * d.HV + block.hv;
  if (tiles == 1) {
    unsigned short* out = args.out + head * d.V;
    const float inverse_rms = inverse_sqrt(sum / static_cast<float>(d.V) + kNormEpsilon);
    for (int j = static_cast<int>(threadIdx.x); j < tile; j += static_cast<int>(blockDim.x))
      out[v0 + j] = float_to_bf16(o[j] * inverse_rms * gate[j]);
    return -1;
  }
  float* gated = args.workspace + head * d.V;
  float* partials = args.workspace + args.batch * d.HV * d.V + head * tiles;
  for (int j = static_cast<int>(threadIdx.x); j < tile; j += static_cast<int>(blockDim.x))
    gated[v0 + j] = o[j] * gate[j];
  if (threadIdx.x == 0) partials[block.tile] = sum;
  __threadfence();
  __syncthreads();
  return threadIdx.x == 0 ? atomicAdd(norm_counter(args, d, head), 1) : -1;
}

// Run by wave 0 of the block that arrived last at the head's norm counter.
__device__ inline void finish_gated_rmsnorm(const GdnDecodeArgs& args, const GdnDims& d,
                                            const HeadBlock& block) {
  const int tiles = block.tiles;
  const long long head = static_cast<long long>(block.b) * d.HV + block.hv;
  if (threadIdx.x == 0) *norm_counter(args, d, head) = 0;
  __threadfence();
  // Written by other blocks: read around the (non-coherent) L1.
  const volatile float* partials = args.workspace + args.batch * d.HV * d.V + head * tiles;
  const volatile float* gated = args.workspace + head * d.V;
  float total = 0.0f;
  for (int t = 0; t < tiles; ++t) total += partials[t];  // fixed order: deterministic
  const float inverse_rms = inverse_sqrt(total / static_cast<float>(d.V) + kNormEpsilon);
  unsigned short* out = args.out + head * d.V;
  for (int v = wave::lane_id(); v < d.V; v += wave::kWaveSize)
    out[v] = float_to_bf16(gated[v] * inverse_rms);
}

// The end of every fused launch, run by wave 0: thread 0 holds the arrival counts of the Q/K
// conv-state and norm handshakes, and the last arrivals do the shared work. Returns whether this
// block arrived last at the key head's Q/K counter and so shifts the Q/K conv state (the caller
// does, from what it staged).
__device__ inline bool finish_shared_work(const GdnDecodeArgs& args, const GdnDims& d,
                                          const HeadBlock& block, int qk_arrived,
                                          int norm_arrived) {
  qk_arrived = wave::broadcast_first(qk_arrived);
  norm_arrived = wave::broadcast_first(norm_arrived);
  if (block.tiles > 1 && norm_arrived == block.tiles - 1) finish_gated_rmsnorm(args, d, block);
  return qk_arrived == block.sharers - 1;
}

// Fast path: K = kKeyDim, V = kValueDim and conv width kW at compile time. Walk is how a block
// covers its part of the head's state (gdn_state_tile.h): StateTile<State, kKeyDim, kTile, kLoads>
// (kValueDim / kTile tiles a head, one K x kTile slice per block) or StreamedState<State,
// kKeyDim, kValueDim, kChunk> (one tile, the whole head streamed in chunks); Walk::kThreads
// threads, the grid head_block_grid(args, tiles).
template <class Layout, class Walk, int kKeyDim, int kValueDim, int kW>
__global__ void __launch_bounds__(Walk::kThreads, Walk::kMinBlocks)
    gdn_decode_fused_fast(GdnDecodeArgs args) {
  __shared__ float q[kKeyDim];
  __shared__ float k[kKeyDim];
  __shared__ float value[Walk::kColumns];
  __shared__ float gate[Walk::kColumns];

  const GdnDims d = fast_dims<kKeyDim, kValueDim, kW>(args);
  const HeadBlock block = head_block<kValueDim / Walk::kColumns>();
  const int b = block.b, hv = block.hv;
  const int v0 = block.tile * Walk::kColumns;
  float* state_row = args.state + b * args.state_row_stride;

  // The staging inputs and gates first, then the state: all in flight at once (they come back
  // first and are computed while the state is still arriving); or the state once the staging is
  // back (StateLoads::after_staging, when every block has a multiprocessor to itself); or, before
  // waiting for the previous kernel (StateLoads::before_wait, launched overlapped), the weights,
  // the state and the staging that kernel cannot write, with the step's inputs prefetched into L2
  // to be read after the wait.
  FastStaging<Layout, kKeyDim, Walk::kColumns, Walk::kThreads, kW> staging;
  Walk walk;
  GateInputs gate_inputs;
  constexpr StateLoads kStateLoads = Walk::kStateLoads;
  if constexpr (kStateLoads == StateLoads::before_wait) {
    gate_inputs.load_weights(args, hv);
    gate_inputs.locate_step<Layout>(args, d, b, hv);
    staging.load_own(args, d, block, v0);
    walk.load(state_row, d, hv, v0);
    staging.prefetch_inputs(args, d, block, v0);
    if (threadIdx.x == 0) gate_inputs.prefetch_step();
  }
  await_previous_kernel();
  if constexpr (kStateLoads == StateLoads::before_wait) {
    staging.load_inputs(args, d, block, v0);
    gate_inputs.load_step();
  } else {
    staging.load(args, d, block, v0);
    gate_inputs = load_gate_inputs<Layout>(args, d, b, hv);
  }
  if constexpr (kStateLoads == StateLoads::with_staging) walk.load(state_row, d, hv, v0);
  staging.finish(args, d, b, StagedHead{q, k, value, gate});
  if constexpr (kStateLoads == StateLoads::after_staging) walk.load(state_row, d, hv, v0);
  __syncthreads();
  const int qk_arrived = threadIdx.x == 0 ? arrive_qk(args, d, b, block.h) : -1;
  const Gates gates = gate_inputs.gates();
  QkNorm norm{};  // or summed by the walk's projection (StateTile::kFoldsQkNorm)
  if constexpr (!Walk::kFoldsQkNorm) norm = l2norm_qk(q, k, kKeyDim);
  const int norm_arrived =
      walk.step(state_row, d, hv, v0, q, k, norm, gates, value, [&](const float* o) {
        return gated_rmsnorm(args, d, block, v0, Walk::kColumns, o, gate,
                             kStateLoads == StateLoads::before_wait);
      });
  // Every thread of the block that arrived last shifts its own Q/K channels: one barrier and a
  // store round, shorter than one wave looping over a shared copy (kernels/gdn/DESIGN.md).
  __shared__ bool shifts_qk;
  if (threadIdx.x < wave::kWaveSize) {
    const bool last = finish_shared_work(args, d, block, qk_arrived, norm_arrived);
    if (threadIdx.x == 0) shifts_qk = last;
  }
  __syncthreads();
  if (shifts_qk) {
    if (threadIdx.x == 0) *qk_counter(args, d, b, block.h) = 0;  // every sharer has arrived
    staging.shift_qk_conv_state(args, d, b);
  }
}

// Any K, V (odd shapes): grid head_block_grid(args, 1), kGenericThreads threads, dynamic shared
// memory of generic_shared_bytes(K, V). Reads the state twice (project, then update); correctness
// path.
inline constexpr int kGenericThreads = 256;
__host__ __device__ inline long long generic_shared_bytes(long long K, long long V) {
  return (2 * K + 4 * V) * static_cast<long long>(sizeof(float));
}

template <class State>
__device__ void update_state_generic(float* state_row, const GdnDims& d, int hv, const float* q,
                                     const float* k, const QkNorm& norm, const Gates& gates,
                                     const float* value, float* u, float* o) {
  for (int v = static_cast<int>(threadIdx.x); v < d.V; v += static_cast<int>(blockDim.x)) {
    float a = 0.0f, c = 0.0f;
    for (int key = 0; key < d.K; ++key) {
      const float s = state_row[State::offset(d, hv, key, v)];
      a += s * (k[key] * norm.k_scale);
      c += s * (q[key] * norm.q_scale);
    }
    const ColumnUpdate update = delta_rule_column(a, c, value[v], gates, norm.k_dot_q);
    u[v] = update.u;
    o[v] = update.o;
  }
  __syncthreads();
  const int elements = d.K * d.V;
  for (int e = static_cast<int>(threadIdx.x); e < elements; e += static_cast<int>(blockDim.x)) {
    // walk in memory order of the layout so neighbouring threads touch neighbouring floats
    const int key = State::kValueInnermost ? e / d.V : e % d.K;
    const int v = State::kValueInnermost ? e % d.V : e / d.K;
    float* s = state_row + State::offset(d, hv, key, v);
    *s = gates.decay * *s + (k[key] * norm.k_scale) * u[v];
  }
}

template <class Layout, class State>
__global__ void __launch_bounds__(kGenericThreads) gdn_decode_fused_generic(GdnDecodeArgs args) {
  extern __shared__ float shared[];
  const GdnDims d = dims_of(args);
  float* q = shared;
  float* k = q + d.K;
  float* value = k + d.K;
  float* gate = value + d.V;
  float* u = gate + d.V;
  float* o = u + d.V;
  const HeadBlock block = head_block<1>();
  const int b = block.b, hv = block.hv;
  float* state_row = args.state + b * args.state_row_stride;

  await_previous_kernel();
  stage_fused_inputs<Layout>(args, d, b, block.h, hv, 0, d.V, StagedHead{q, k, value, gate});
  const Gates gates = load_gates<Layout>(args, d, b, hv);
  __syncthreads();
  const int qk_arrived = threadIdx.x == 0 ? arrive_qk(args, d, b, block.h) : -1;
  const QkNorm norm = l2norm_qk(q, k, d.K);
  update_state_generic<State>(state_row, d, hv, q, k, norm, gates, value, u, o);
  gated_rmsnorm(args, d, block, 0, d.V, o, gate, false);
  if (threadIdx.x < wave::kWaveSize && finish_shared_work(args, d, block, qk_arrived, -1))
    shift_qk_conv_state<Layout>(args, d, b, block.h);
}

}  // namespace layoutcheck::kernels
