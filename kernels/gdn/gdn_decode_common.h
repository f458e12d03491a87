// Device code shared by the GDN decode kernels (fused and baseline): the maths of design §5 in
// fp32, staging of one value head's inputs into shared memory, and the cross-block handshake that
// lets several blocks share a key head's conv state without a race.
#pragma once

#include "gdn_abi.h"
#include "gdn_layouts.h"
#include "launch_order.h"
#include "layoutcheck/platform/bf16.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

inline constexpr float kNormEpsilon = 1e-6f;  // l2norm and RMSNorm, inside the root

__device__ inline float silu(float x) {
  return x / (1.0f + expf(-x));
}
__device__ inline float softplus(float x) {
  return x > 20.0f ? x : log1pf(expf(x));
}
__device__ inline float sigmoid(float x) {
  return 1.0f / (1.0f + expf(-x));
}
// 1 / sqrt(x) for the norms' scale factors: the hardware reciprocal root (within 2 ulp of the
// exact one) instead of an IEEE root and a division on each norm's dependent chain, which is the
// batch-1 critical path (kernels/gdn/DESIGN.md). Every path's kernels use it, so none gains on
// another.
__device__ inline float inverse_sqrt(float x) {
  return rsqrtf(x);
}
__device__ inline float bf16_at(const unsigned short* p, long long i) {
  return bf16_to_float(p[i]);
}

__host__ __device__ inline GdnDims dims_of(const GdnDecodeArgs& args) {
  GdnDims d;
  d.H = static_cast<int>(args.H);
  d.HV = static_cast<int>(args.HV);
  d.K = static_cast<int>(args.K);
  d.V = static_cast<int>(args.V);
  d.W = static_cast<int>(args.W);
  return d;
}

// The sizes the fast-path kernels are compiled for (fused_fast_path checks a launch against them).
inline constexpr int kFastKeyDim = 128;
inline constexpr int kFastValueDim = 128;
inline constexpr int kFastConvWidth = 4;

// The dims of a fast-path launch with K, V and the conv width W as the kernel's compile-time sizes
// (the launcher checked the arguments against them): every contract offset into the state, qkvz
// and conv buffers then folds to constants and immediates; H and HV stay as launched.
template <int kKeyDim, int kValueDim, int kW>
__device__ inline GdnDims fast_dims(const GdnDecodeArgs& args) {
  GdnDims d = dims_of(args);
  d.K = kKeyDim;
  d.V = kValueDim;
  d.W = kW;
  return d;
}

// The head a block of a state kernel (fused, or the baseline's recurrent step) owns. The grid is
// (tiles * G, H, batch): the key head is the block's y index and the value head comes from x
// without dividing by G = HV / H (two dependent integer divisions would sit ahead of every load,
// kernels/gdn/DESIGN.md). The G * tiles blocks of one key head are neighbours in x.
struct HeadBlock {
  int b;        // sequence
  int h;        // key head
  int hv;       // value head
  int tile;     // which of the head's column slices
  int tiles;    // column slices per head
  int sharers;  // blocks that read key head h's staged q/k: G * tiles
};

template <int kTiles>
__device__ inline HeadBlock head_block() {
  const int x = static_cast<int>(blockIdx.x);
  const int sharers = static_cast<int>(gridDim.x);
  HeadBlock block;
  block.b = static_cast<int>(blockIdx.z);
  block.h = static_cast<int>(blockIdx.y);
  block.hv = block.h * (sharers / kTiles) + x / kTiles;
  block.tile = x % kTiles;
  block.tiles = kTiles;
  block.sharers = sharers;
  return block;
}

// The grid head_block() reads: one block per (tile, value head, sequence).
inline dim3 head_block_grid(const GdnDecodeArgs& args, int tiles) {
  return dim3(static_cast<unsigned>(tiles * (args.HV / args.H)), static_cast<unsigned>(args.H),
              static_cast<unsigned>(args.batch));
}

// exp(g) and beta of one value head (design §5 step 3, fp32).
struct Gates {
  float decay;  // exp(g), g = -exp(A_log) * softplus(a + dt_bias)
  float beta;   // sigmoid(b)
};

__device__ inline Gates make_gates(float a, float b, float A_log, float dt_bias) {
  const float g = -expf(A_log) * softplus(a + dt_bias);
  return {expf(g), sigmoid(b)};
}

// The raw inputs of one head's gates, loaded early (their round trip overlaps the staging) and
// turned into Gates once they are needed: the head's weights, which no previous kernel writes,
// and the step's a and b from the ba row, located (locate_step) before they are read so that a
// kernel launched overlapped has their addresses ready when its wait is over.
struct GateInputs {
  unsigned short a, b;
  float A_log, dt_bias;
  const unsigned short* a_at;
  const unsigned short* b_at;
  __device__ Gates gates() const {
    return make_gates(bf16_to_float(a), bf16_to_float(b), A_log, dt_bias);
  }
  __device__ void load_weights(const GdnDecodeArgs& args, int hv) {
    A_log = args.A_log[hv];
    dt_bias = args.dt_bias[hv];
  }
  template <class Layout>
  __device__ void locate_step(const GdnDecodeArgs& args, const GdnDims& d, int sequence, int hv) {
    const unsigned short* row = args.ba + sequence * args.ba_row_stride;
    a_at = row + Layout::a(d, hv);
    b_at = row + Layout::b(d, hv);
  }
  // @pre locate_step().
  __device__ void prefetch_step() const {
    prefetch_to_l2(a_at);
    prefetch_to_l2(b_at);
  }
  // @pre locate_step().
  __device__ void load_step() {
    a = *a_at;
    b = *b_at;
  }
};

template <class Layout>
__device__ inline GateInputs load_gate_inputs(const GdnDecodeArgs& args, const GdnDims& d, int b,
                                              int hv) {
  GateInputs inputs;
  inputs.locate_step<Layout>(args, d, b, hv);
  inputs.load_step();
  inputs.load_weights(args, hv);
  return inputs;
}

template <class Layout>
__device__ inline Gates load_gates(const GdnDecodeArgs& args, const GdnDims& d, int b, int hv) {
  return load_gate_inputs<Layout>(args, d, b, hv).gates();
}

// One causal-conv channel: silu(sum_t w[t] * window[t]), window = the W-1 stored raw inputs
// (oldest first) then x.
__device__ inline float conv_channel(const unsigned short* taps, const unsigned short* weights,
                                     unsigned short x, int W) {
  float sum = 0.0f;
  for (int t = 0; t < W - 1; ++t) sum += bf16_to_float(weights[t]) * bf16_to_float(taps[t]);
  sum += bf16_to_float(weights[W - 1]) * bf16_to_float(x);
  return silu(sum);
}

// The conv state keeps the last W-1 raw inputs: drop the oldest, append x (pure data movement,
// bitwise equal to the reference's shift).
__device__ inline void shift_taps(unsigned short* taps, unsigned short x, int W) {
  for (int t = 0; t + 2 < W; ++t) taps[t] = taps[t + 1];
  taps[W - 2] = x;
}

// Shared-memory views of one value head's staged inputs.
struct StagedHead {
  float* q;     // [K] conv output of the key head's query (before l2norm)
  float* k;     // [K] conv output of the key head's key (before l2norm)
  float* v;     // [tile] conv output of this value head's value columns
  float* gate;  // [tile] silu(z) * norm_weight, for the gated RMSNorm
};

// Stages q, k (whole key head h), v and the norm gate (columns v0 .. v0+tile-1 of value head hv)
// for a fused kernel reading qkvz through Layout. The V channels' conv state belongs to this
// block and is shifted here; the Q/K channels' state is shared by every block of the key head and
// is shifted once every block of the key head has read it (arrive_qk / shift_qk_conv_state).
template <class Layout>
__device__ void stage_fused_inputs(const GdnDecodeArgs& args, const GdnDims& d, int b, int h,
                                   int hv, int v0, int tile, const StagedHead& staged) {
  const unsigned short* row = args.qkvz + b * args.qkvz_row_stride;
  unsigned short* conv =
      args.conv_state + b * static_cast<long long>(d.conv_channels()) * (d.W - 1);
  const int items = 2 * d.K + 2 * tile;
  for (int i = static_cast<int>(threadIdx.x); i < items; i += static_cast<int>(blockDim.x)) {
    if (i < 2 * d.K) {
      const bool is_q = i < d.K;
      const int k = is_q ? i : i - d.K;
      const unsigned short x = row[is_q ? Layout::q(d, h, k) : Layout::k(d, h, k)];
      const int channel = is_q ? ConvLayout::q_channel(d, h, k) : ConvLayout::k_channel(d, h, k);
      const int taps = is_q ? ConvLayout::q_taps(d, h, k) : ConvLayout::k_taps(d, h, k);
      (is_q ? staged.q : staged.k)[k] = conv_channel(
          conv + taps, args.conv_weight + static_cast<long long>(channel) * d.W, x, d.W);
    } else if (i < 2 * d.K + tile) {
      const int j = i - 2 * d.K;
      const int v = v0 + j;
      const unsigned short x = row[Layout::v(d, hv, v)];
      const int channel = ConvLayout::v_channel(d, hv, v);
      unsigned short* taps = conv + ConvLayout::v_taps(d, hv, v);
      staged.v[j] =
          conv_channel(taps, args.conv_weight + static_cast<long long>(channel) * d.W, x, d.W);
      shift_taps(taps, x, d.W);
    } else {
      const int j = i - 2 * d.K - tile;
      const int v = v0 + j;
      staged.gate[j] = silu(bf16_at(row, Layout::z(d, hv, v))) * bf16_at(args.norm_weight, v);
    }
  }
}

// Fast-path staging (K, tile and conv width W known at compile time), in two halves so that a
// kernel can put other loads between them: load() issues every global load of the thread's items
// into registers and returns at once; finish() computes them (conv + silu, the gate) into shared
// memory. Issued before the state slice, the staging loads come back first and the conv, the
// l2norm and the gates are computed while the slice is still arriving. Each thread keeps its
// items' raw conv window (W-1 taps, then x) in registers, so that in the block that shifts the key
// head's shared Q/K conv state every thread writes its own channels (shift_qk_conv_state) with no
// second read: one store round instead of a wave's loop (kernels/gdn/DESIGN.md).
template <class Layout, int kKeyDim, int kTile, int kThreads, int kW>
struct FastStaging {
  static constexpr int kConvItems = 2 * kKeyDim + kTile;  // Q, K channels of the key head, V
  static constexpr int kItems = kConvItems + kTile;       // and the tile's Z
  static constexpr int kPerThread = (kItems + kThreads - 1) / kThreads;

  unsigned short window[kPerThread][kW];  // taps then x; for Z items [0] is z
  unsigned short weight[kPerThread][kW];  // conv weights; for Z items [0] is the norm weight
  int taps[kPerThread];                   // the conv item's W-1 taps in the conv state row
  int input_at[kPerThread];               // the item's x (or z) in the qkvz row
  const unsigned short* row;              // the sequence's qkvz row

  // Every global load of the thread's items. load() issues each item's loads together (fastest
  // when nothing comes between them, kernels/gdn/DESIGN.md); load_own()
  // then load_inputs() issue the same loads in two passes around the wait for the previous kernel:
  // first what that kernel cannot write (launch_order.h: the conv state's taps, the weights), then
  // the step's inputs it may have produced (x of each conv item, z). prefetch_inputs(), before
  // the wait, pulls the lines load_inputs() will read into L2 (faster at batch 1 launched
  // overlapped, kernels/gdn/DESIGN.md). Both take the addresses load_own() found (@pre
  // load_own() with the same arguments), so that after the wait only the loads are left to issue.
  __device__ void load(const GdnDecodeArgs& args, const GdnDims& d, const HeadBlock& block,
                       int v0) {
    load_items<true, Inputs::load>(args, d, block, v0);
  }
  __device__ void load_own(const GdnDecodeArgs& args, const GdnDims& d, const HeadBlock& block,
                           int v0) {
    load_items<true, Inputs::skip>(args, d, block, v0);
  }
  __device__ void prefetch_inputs(const GdnDecodeArgs& args, const GdnDims& d,
                                  const HeadBlock& block, int v0) {
    load_items<false, Inputs::prefetch>(args, d, block, v0);
  }
  __device__ void load_inputs(const GdnDecodeArgs& args, const GdnDims& d, const HeadBlock& block,
                              int v0) {
    load_items<false, Inputs::load>(args, d, block, v0);
  }

  // @pre load(), or load_own() and load_inputs(), with the same arguments. The block's own V
  // channels' conv state is shifted here.
  __device__ void finish(const GdnDecodeArgs& args, const GdnDims& d, int b,
                         const StagedHead& staged) {
    unsigned short* conv = conv_row(args, d, b);
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int i = static_cast<int>(threadIdx.x) + j * kThreads;
      if (i >= kItems) continue;
      if (i < kConvItems) {
        float sum = 0.0f;
#pragma unroll
        for (int t = 0; t < kW; ++t)
          sum += bf16_to_float(weight[j][t]) * bf16_to_float(window[j][t]);
        const float y = silu(sum);
        if (i < 2 * kKeyDim) {
          (i < kKeyDim ? staged.q[i] : staged.k[i - kKeyDim]) = y;
        } else {
          staged.v[i - 2 * kKeyDim] = y;
#pragma unroll
          for (int t = 0; t + 1 < kW; ++t) conv[taps[j] + t] = window[j][t + 1];
        }
      } else {
        staged.gate[i - kConvItems] =
            silu(bf16_to_float(window[j][0])) * bf16_to_float(weight[j][0]);
      }
    }
  }

  // The key head's Q/K conv state, shifted by every thread of the block that arrived last at
  // the key head's counter (arrive_qk), each for its own Q/K items. @pre load(), or load_own()
  // and load_inputs(), with the same arguments (the new tap is the step's x).
  __device__ void shift_qk_conv_state(const GdnDecodeArgs& args, const GdnDims& d, int b) const {
    unsigned short* conv = conv_row(args, d, b);
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int i = static_cast<int>(threadIdx.x) + j * kThreads;
      if (i >= 2 * kKeyDim) continue;
#pragma unroll
      for (int t = 0; t + 1 < kW; ++t) conv[taps[j] + t] = window[j][t + 1];
    }
  }

 private:
  enum class Inputs { skip, load, prefetch };  // what load_items does with the step's inputs

  template <bool kOwn, Inputs kInputs>
  __device__ void load_items(const GdnDecodeArgs& args, const GdnDims& d, const HeadBlock& block,
                             int v0) {
    const int b = block.b, h = block.h, hv = block.hv;
    if constexpr (kOwn) row = args.qkvz + b * args.qkvz_row_stride;
    const unsigned short* conv = conv_row(args, d, b);
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int i = static_cast<int>(threadIdx.x) + j * kThreads;
      if (i >= kItems) continue;
      if (i < kConvItems) {
        int channel = 0;
        if constexpr (kOwn) {
          if (i < kKeyDim) {
            input_at[j] = Layout::q(d, h, i), channel = ConvLayout::q_channel(d, h, i);
            taps[j] = ConvLayout::q_taps(d, h, i);
          } else if (i < 2 * kKeyDim) {
            const int k = i - kKeyDim;
            input_at[j] = Layout::k(d, h, k), channel = ConvLayout::k_channel(d, h, k);
            taps[j] = ConvLayout::k_taps(d, h, k);
          } else {
            const int v = v0 + i - 2 * kKeyDim;
            input_at[j] = Layout::v(d, hv, v), channel = ConvLayout::v_channel(d, hv, v);
            taps[j] = ConvLayout::v_taps(d, hv, v);
          }
#pragma unroll
          for (int t = 0; t + 1 < kW; ++t) window[j][t] = conv[taps[j] + t];
        }
        if constexpr (kInputs == Inputs::load) window[j][kW - 1] = row[input_at[j]];
        if constexpr (kInputs == Inputs::prefetch) prefetch_to_l2(row + input_at[j]);
        if constexpr (kOwn) {
#pragma unroll
          for (int t = 0; t < kW; ++t) weight[j][t] = args.conv_weight[channel * kW + t];
        }
      } else {
        const int v = v0 + i - kConvItems;
        if constexpr (kOwn) input_at[j] = Layout::z(d, hv, v);
        if constexpr (kInputs == Inputs::load) window[j][0] = row[input_at[j]];
        if constexpr (kInputs == Inputs::prefetch) prefetch_to_l2(row + input_at[j]);
        if constexpr (kOwn) weight[j][0] = args.norm_weight[v];
      }
    }
  }

  __device__ static unsigned short* conv_row(const GdnDecodeArgs& args, const GdnDims& d, int b) {
    return args.conv_state + b * static_cast<long long>(d.conv_channels()) * (kW - 1);
  }
};

// The blocks that read key head h's Q/K conv state (`sharers` of them) each arrive at a counter
// once their reads are done; the last to arrive shifts the state and resets the counter. No block
// waits for another, so there is no deadlock whatever the scheduling, and every block reads the
// unshifted state. Arriving is split from acting so the atomic's round trip overlaps the state
// work: thread 0 calls arrive_qk() right after the block synchronised on its staged values, and
// the block that arrived last shifts the state at the end (the fast kernels with every thread,
// FastStaging::shift_qk_conv_state; the generic one with wave 0, shift_qk_conv_state()).
__device__ inline int* qk_counter(const GdnDecodeArgs& args, const GdnDims& d, int b, int h) {
  return args.sync_counters + b * d.H + h;
}

__device__ inline int arrive_qk(const GdnDecodeArgs& args, const GdnDims& d, int b, int h) {
  return atomicAdd(qk_counter(args, d, b, h), 1);
}

// Run by one wave (wave 0 of the block that arrived last).
template <class Layout>
__device__ void shift_qk_conv_state(const GdnDecodeArgs& args, const GdnDims& d, int b, int h) {
  if (threadIdx.x == 0) *qk_counter(args, d, b, h) = 0;  // every sharer has arrived
  const unsigned short* row = args.qkvz + b * args.qkvz_row_stride;
  unsigned short* conv =
      args.conv_state + b * static_cast<long long>(d.conv_channels()) * (d.W - 1);
  for (int i = wave::lane_id(); i < 2 * d.K; i += wave::kWaveSize) {
    const bool is_q = i < d.K;
    const int k = is_q ? i : i - d.K;
    const unsigned short x = row[is_q ? Layout::q(d, h, k) : Layout::k(d, h, k)];
    shift_taps(conv + (is_q ? ConvLayout::q_taps(d, h, k) : ConvLayout::k_taps(d, h, k)), x, d.W);
  }
}

// l2norm factors of q and k over the key dim, and their dot product after normalisation:
// qhat = q * q_scale (including K^-0.5), khat = k * k_scale.
struct QkNorm {
  float q_scale;
  float k_scale;
  float k_dot_q;  // khat . qhat
};

// The factors from q.q, k.k and q.k over the K keys.
__device__ inline QkNorm qk_norm_from_sums(float q_dot_q, float k_dot_k, float q_dot_k, int K) {
  QkNorm norm;
  // K^-0.5 stays the exact root: a constant of the launch, off the dependent chain.
  norm.q_scale = inverse_sqrt(q_dot_q + kNormEpsilon) * (1.0f / sqrtf(static_cast<float>(K)));
  norm.k_scale = inverse_sqrt(k_dot_k + kNormEpsilon);
  norm.k_dot_q = q_dot_k * norm.q_scale * norm.k_scale;
  return norm;
}

// The factors of the staged q and k. Every wave sums them itself (a few shared loads a lane)
// instead of the block combining partials: no block barrier on the kernel's critical path. The
// waves add in the same order, so they all get bitwise the same factors. @pre q, k visible to the
// whole block.
__device__ inline QkNorm l2norm_qk(const float* q, const float* k, int K) {
  float sums[3] = {0.0f, 0.0f, 0.0f};
  for (int i = wave::lane_id(); i < K; i += wave::kWaveSize) {
    sums[0] += q[i] * q[i];
    sums[1] += k[i] * k[i];
    sums[2] += q[i] * k[i];
  }
  for (float& sum : sums) sum = wave::group_sum<wave::kWaveSize>(sum);
  return qk_norm_from_sums(sums[0], sums[1], sums[2], K);
}

// The delta rule for one column v, from the column's projections of the *old* state
// (a = S^T khat, c = S^T qhat): with S' = decay*S, u = beta*(v - S'^T khat), S_new = S' + khat u^T,
// and o = S_new^T qhat = decay*c + (khat.qhat)*u.
struct ColumnUpdate {
  float u;
  float o;
};

__device__ inline ColumnUpdate delta_rule_column(float a, float c, float value, const Gates& gates,
                                                 float k_dot_q) {
  const float u = gates.beta * (value - gates.decay * a);
  return {u, gates.decay * c + k_dot_q * u};
}

}  // namespace layoutcheck::kernels
