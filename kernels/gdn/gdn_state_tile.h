// The bandwidth-critical part of GDN decode: one block streams a K x tile slice of one value
// head's fp32 state through registers exactly once (16-byte loads, kLoadsPerThread of them in
// flight per thread, issued before anything else), projects it on khat and qhat, and writes the
// updated slice back. Works for both state layouts the contracts describe:
//   value innermost ([HV,K,V]): a thread owns 4 consecutive columns in kLoadsPerThread rows;
//     column sums over k: the thread's rows, then the wave's rows (shuffles), then the block's
//     waves (shared memory, one partial per wave);
//   key innermost ([HV,V,K]): a thread owns 4 consecutive keys in kLoadsPerThread rows (columns);
//     row sums over k are a butterfly inside a group of K/4 lanes (never wider than a wave).
// StateTile and StreamedState are the two state walks a fast-path kernel is instantiated with;
// both offer kThreads, kMinBlocks, kColumns (of the head per block), kStateLoads (when the kernel
// issues load()), load() and step(). LoadsAfterStaging<Walk> defers a walk's loads,
// LoadsBeforeWait<Walk> brings them before the wait for the previous kernel.
#pragma once

#include "gdn_decode_common.h"

namespace layoutcheck::kernels {

// When a kernel issues its walk's state loads.
enum class StateLoads {
  with_staging,   // right after the staged inputs' loads: all in flight at once
  after_staging,  // once the staged inputs are back
  before_wait,    // first, before await_previous_kernel() (launch_order.h)
};

// How a walk's state loads and stores meet the caches. A step reads each state line once and
// writes it once, and the next read of it is a whole model step later, so the lines can be
// marked streaming (evict-first; ld.global.cs, st.global.cs). That is faster for the whole head
// when every block has a multiprocessor to itself (batch 1 and 2) and slower where the state
// stream is bandwidth bound (kernels/gdn/DESIGN.md), so only the one-wave walks use it.
// NVIDIA only: plain on HIP.
enum class StateCaching { normal, streaming };

template <StateCaching kCaching>
__device__ inline float4 load_state(const float* p) {
  const float4* line = reinterpret_cast<const float4*>(p);
#if defined(LC_GPU_VENDOR_NVIDIA)
  if constexpr (kCaching == StateCaching::streaming) return __ldcs(line);
#endif
  return *line;
}

template <StateCaching kCaching>
__device__ inline void store_state(float* p, const float4& value) {
  float4* line = reinterpret_cast<float4*>(p);
#if defined(LC_GPU_VENDOR_NVIDIA)
  if constexpr (kCaching == StateCaching::streaming) return __stcs(line, value);
#endif
  *line = value;
}

// Blocks per multiprocessor to plan registers for (__launch_bounds__): the state floats a thread
// holds plus about 48 registers of addressing, staging and reductions, over NVIDIA's 64K-register
// file; ptxas then keeps the slice in registers without spilling (kernels/gdn/DESIGN.md). HIP on
// gfx9 reads the second bound as waves per SIMD, a weaker hint that is also met.
constexpr int min_blocks_for(int threads, int state_floats_per_thread) {
  const int blocks = 65536 / (threads * (state_floats_per_thread + 48));
  return blocks < 1 ? 1 : blocks;
}

template <class State, int kKeyDim, int kTile, int kLoadsPerThread = 8,
          StateCaching kCaching = StateCaching::normal>
struct StateTile {
  static constexpr bool kValueInnermost = State::kValueInnermost;
  static constexpr int kThreads = kKeyDim * kTile / 4 / kLoadsPerThread;
  // Threads along the contiguous index of one row, and rows covered per pass.
  static constexpr int kQuadsPerRow = kValueInnermost ? kTile / 4 : kKeyDim / 4;
  static constexpr int kRowGroups = kThreads / kQuadsPerRow;
  static_assert(kThreads % kQuadsPerRow == 0, "a pass must cover whole rows");
  static_assert(kRowGroups * kLoadsPerThread == (kValueInnermost ? kKeyDim : kTile),
                "each thread's rows must tile the slice exactly");
  static_assert(kThreads % wave::kWaveSize == 0, "blocks are whole waves");
  static_assert(kQuadsPerRow <= wave::kWaveSize, "a row is read by the lanes of one wave");
  static constexpr int kWaves = kThreads / wave::kWaveSize;
  static constexpr int kMinBlocks = min_blocks_for(kThreads, 4 * kLoadsPerThread);
  // Value innermost, project() also sums the l2norm's q.q, k.k and q.k over the q and k rows it
  // reads anyway, each wave's share beside its column partials: that replaces l2norm_qk's
  // shuffles before the block's first barrier (kernels/gdn/DESIGN.md).
  static constexpr bool kFoldsQkNorm = kValueInnermost;
  // Shared floats project() needs (value-innermost layout only): per wave, the column partials
  // of a and c, then the three l2norm sums.
  static constexpr int kReductionFloats = kValueInnermost ? kWaves * (2 * kTile + 3) : 1;
  static constexpr int kColumns = kTile;  // of the head, per block: grid.x = V / kColumns
  static constexpr StateLoads kStateLoads = StateLoads::with_staging;

  float4 s[kLoadsPerThread];
  float u_row[kLoadsPerThread];  // key-innermost layout: u of each owned column
  int quad = 0;
  int group = 0;

  __device__ int offset(const GdnDims& d, int hv, int v0, int i) const {
    if constexpr (kValueInnermost)
      return State::offset(d, hv, group + i * kRowGroups, v0 + 4 * quad);
    else
      return State::offset(d, hv, 4 * quad, v0 + group + i * kRowGroups);
  }

  // Issues every load of the slice; nothing waits for them until project().
  __device__ void load(const float* state_row, const GdnDims& d, int hv, int v0) {
    quad = static_cast<int>(threadIdx.x) % kQuadsPerRow;
    group = static_cast<int>(threadIdx.x) / kQuadsPerRow;
#pragma unroll
    for (int i = 0; i < kLoadsPerThread; ++i)
      s[i] = load_state<kCaching>(state_row + offset(d, hv, v0, i));
  }

  // For every column of the slice: a = S^T khat, c = S^T qhat over the old state, then the delta
  // rule; u and o of column j land in u_out[j], o_out[j]. q, k are the staged (unnormalised) conv
  // outputs; value[j] the staged value; norm their l2norm factors. With fold_norm (value innermost
  // only, kFoldsQkNorm) the incoming norm is ignored: it is summed here and set, the same in every
  // thread. Ends with the block synchronised.
  __device__ void project(const float* q, const float* k, QkNorm& norm, const Gates& gates,
                          const float* value, float* u_out, float* o_out, float* reduction,
                          bool fold_norm = kFoldsQkNorm) {
    if constexpr (kValueInnermost) {
      float a[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      float qk_sums[3] = {0.0f, 0.0f, 0.0f};  // q.q, k.k, q.k over this thread's rows
#pragma unroll
      for (int i = 0; i < kLoadsPerThread; ++i) {
        // The raw q and k: the l2norm's scales multiply the column sums below, and its own
        // sums come from these rows too.
        const int row = group + i * kRowGroups;
        const float kh = k[row];
        const float qh = q[row];
        a[0] += s[i].x * kh, a[1] += s[i].y * kh, a[2] += s[i].z * kh, a[3] += s[i].w * kh;
        c[0] += s[i].x * qh, c[1] += s[i].y * qh, c[2] += s[i].z * qh, c[3] += s[i].w * qh;
        if (fold_norm) qk_sums[0] += qh * qh, qk_sums[1] += kh * kh, qk_sums[2] += qh * kh;
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) {  // the wave's lanes with the same quad hold the same columns
        a[j] = wave::strided_sum<kQuadsPerRow>(a[j]);
        c[j] = wave::strided_sum<kQuadsPerRow>(c[j]);
      }
      const int wave_index = static_cast<int>(threadIdx.x) / wave::kWaveSize;
      float* qk_partials = reduction + kWaves * 2 * kTile;
      if (fold_norm) {
#pragma unroll
        for (int j = 0; j < 3; ++j) {  // every quad sums the same rows: lane 0 keeps the wave's
          qk_sums[j] = wave::strided_sum<kQuadsPerRow>(qk_sums[j]);
          if (wave::lane_id() == 0) qk_partials[wave_index * 3 + j] = qk_sums[j];
        }
      }
      if (wave::lane_id() < kQuadsPerRow) {
        float* partial = reduction + wave_index * 2 * kTile;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          partial[4 * quad + j] = a[j];
          partial[kTile + 4 * quad + j] = c[j];
        }
      }
      __syncthreads();
      if (fold_norm) {
        float sums[3] = {0.0f, 0.0f, 0.0f};
        for (int w = 0; w < kWaves; ++w)  // fixed order: every thread the same factors
#pragma unroll
          for (int j = 0; j < 3; ++j) sums[j] += qk_partials[w * 3 + j];
        norm = qk_norm_from_sums(sums[0], sums[1], sums[2], kKeyDim);
      }
      for (int column = static_cast<int>(threadIdx.x); column < kTile; column += kThreads) {
        float a_sum = 0.0f, c_sum = 0.0f;
        for (int w = 0; w < kWaves; ++w) {  // fixed order: deterministic
          a_sum += reduction[w * 2 * kTile + column];
          c_sum += reduction[w * 2 * kTile + kTile + column];
        }
        a_sum *= norm.k_scale;
        c_sum *= norm.q_scale;
        const ColumnUpdate update =
            delta_rule_column(a_sum, c_sum, value[column], gates, norm.k_dot_q);
        u_out[column] = update.u;
        o_out[column] = update.o;
      }
      __syncthreads();
    } else {
      float kh[4], qh[4];  // raw, the l2norm's scales after the sums (as above)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        kh[j] = k[4 * quad + j];
        qh[j] = q[4 * quad + j];
      }
#pragma unroll
      for (int i = 0; i < kLoadsPerThread; ++i) {
        float a = s[i].x * kh[0] + s[i].y * kh[1] + s[i].z * kh[2] + s[i].w * kh[3];
        float c = s[i].x * qh[0] + s[i].y * qh[1] + s[i].z * qh[2] + s[i].w * qh[3];
        a = wave::group_sum<kQuadsPerRow>(a) * norm.k_scale;
        c = wave::group_sum<kQuadsPerRow>(c) * norm.q_scale;
        const int column = group + i * kRowGroups;
        const ColumnUpdate update = delta_rule_column(a, c, value[column], gates, norm.k_dot_q);
        u_row[i] = update.u;
        if (quad == 0) {
          u_out[column] = update.u;
          o_out[column] = update.o;
        }
      }
      __syncthreads();
    }
  }

  // One decode step on the block's slice, with its shared scratch: project() (norm as there),
  // then on_output(o) (o: kTile floats in shared memory, visible to the whole block) before the
  // updated slice is stored, so what on_output publishes overlaps the stores. Returns what
  // on_output returns. @pre load().
  template <class OnOutput>
  __device__ auto step(float* state_row, const GdnDims& d, int hv, int v0, const float* q,
                       const float* k, QkNorm norm, const Gates& gates, const float* value,
                       OnOutput on_output) {
    __shared__ float u[kTile];
    __shared__ float o[kTile];
    __shared__ float reduction[kReductionFloats];
    project(q, k, norm, gates, value, u, o, reduction);
    const auto published = on_output(static_cast<const float*>(o));
    update_and_store(state_row, d, hv, v0, k, norm, gates, u);
    return published;
  }

  // S_new = decay * S + khat u^T, written back where it was read. @pre project() ran.
  __device__ void update_and_store(float* state_row, const GdnDims& d, int hv, int v0,
                                   const float* k, const QkNorm& norm, const Gates& gates,
                                   const float* u) {
#pragma unroll
    for (int i = 0; i < kLoadsPerThread; ++i) {
      float4 updated;
      if constexpr (kValueInnermost) {
        const float kh = k[group + i * kRowGroups] * norm.k_scale;
        const float* uc = u + 4 * quad;
        updated.x = gates.decay * s[i].x + kh * uc[0];
        updated.y = gates.decay * s[i].y + kh * uc[1];
        updated.z = gates.decay * s[i].z + kh * uc[2];
        updated.w = gates.decay * s[i].w + kh * uc[3];
      } else {
        const float* kq = k + 4 * quad;
        const float ui = u_row[i];
        updated.x = gates.decay * s[i].x + kq[0] * norm.k_scale * ui;
        updated.y = gates.decay * s[i].y + kq[1] * norm.k_scale * ui;
        updated.z = gates.decay * s[i].z + kq[2] * norm.k_scale * ui;
        updated.w = gates.decay * s[i].w + kq[3] * norm.k_scale * ui;
      }
      store_state<kCaching>(state_row + offset(d, hv, v0, i), updated);
    }
  }
};

// One block streams a value head's whole K x V state in column chunks of kChunk: two chunks are
// in flight in registers; each is updated and stored while the next is still arriving, and its
// registers are then reloaded with the chunk two ahead. With one block per head, per-head results
// (the gated RMSNorm) need no other block, and the block's memory traffic never stops between a
// read phase and a write phase.
template <class State, int kKeyDim, int kValueDim, int kChunk>
struct StreamedState {
  using Chunk = StateTile<State, kKeyDim, kChunk, 4>;
  static constexpr int kChunks = kValueDim / kChunk;
  static constexpr int kThreads = Chunk::kThreads;
  static constexpr int kMinBlocks = min_blocks_for(kThreads, 2 * 4 * 4);  // two chunks held
  static constexpr int kColumns = kValueDim;  // the whole head: grid.x = 1
  static constexpr StateLoads kStateLoads = StateLoads::with_staging;
  // The kernel's l2norm_qk gives the factors: summed in the first chunk's projection they spilled
  // registers under this walk's budget (kMinBlocks).
  static constexpr bool kFoldsQkNorm = false;
  static_assert(kValueDim % kChunk == 0 && kChunks >= 2, "at least two whole chunks");

  Chunk chunk[2];

  // Issues the first two chunks' loads; nothing waits for them until step(). v0 is 0.
  __device__ void load(const float* state_row, const GdnDims& d, int hv, int v0) {
    chunk[0].load(state_row, d, hv, v0);
    chunk[1].load(state_row, d, hv, v0 + kChunk);
  }

  // One decode step over every column (StateTile::project, update_and_store, chunk by chunk),
  // then on_output(o) (o: kValueDim floats in shared memory, visible to the whole block); returns
  // what on_output returns. @pre load().
  template <class OnOutput>
  __device__ auto step(float* state_row, const GdnDims& d, int hv, int v0, const float* q,
                       const float* k, QkNorm norm, const Gates& gates, const float* value,
                       OnOutput on_output) {
    __shared__ float u[kChunk];
    __shared__ float o[kValueDim];
    __shared__ float reduction[Chunk::kReductionFloats];
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      Chunk& current = chunk[c % 2];
      const int column = v0 + c * kChunk;
      current.project(q, k, norm, gates, value + c * kChunk, u, o + c * kChunk, reduction,
                      kFoldsQkNorm);
      current.update_and_store(state_row, d, hv, column, k, norm, gates, u);
      if (c + 2 < kChunks) current.load(state_row, d, hv, column + 2 * kChunk);
    }
    return on_output(static_cast<const float*>(o));
  }
};

// Walk with its load() issued only once the block's staged inputs are back. When every block has
// a multiprocessor to itself (batch 1), the scattered staging loads issued beside the state
// streams come back after them (kernels/gdn/DESIGN.md);
// issued alone they return sooner, and the conv and gates run while the state arrives (and, key
// innermost, the l2norm).
template <class Walk>
struct LoadsAfterStaging : Walk {
  static constexpr StateLoads kStateLoads = StateLoads::after_staging;
};

// Walk with its load() issued first, with the block's other loads the previous kernel cannot
// write, before the kernel waits for that kernel: launched overlapped, the state streams in while
// the previous kernel finishes.
template <class Walk>
struct LoadsBeforeWait : Walk {
  static constexpr StateLoads kStateLoads = StateLoads::before_wait;
};

}  // namespace layoutcheck::kernels
