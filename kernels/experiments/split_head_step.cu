// Experiment, not part of the build (kernels/PERF_NOTES.md, "Session 8: the split head, measured
// before it is built", and v17): can a fused decode step that splits each value head over a thread
// block cluster reach 3.5 µs a layer at batch 1? The bare state pass (state_pass_floor.cu) says the
// traffic alone takes 3.14 µs with quarters and a cluster combine, launched overlapped; this one
// adds the whole step's chain, so the answer comes before the library kernel is rewritten.
//
// The step is the fused kernel's maths (design §5) on flat rows and [HV][K][V] fp32 state, one
// layer per launch, 48 layers each with its own buffers in one CUDA graph (the bench's method).
// Block r of a value head's cluster owns columns [r*C, (r+1)*C) and convolves q and k channels
// [r*C, (r+1)*C) of the key head; it pushes them into every block of its cluster (distributed
// shared memory), so each block then has the whole q and k for the l2norm. The RMSNorm's sum of
// o^2 is pushed the same way behind a split cluster barrier whose wait the state stores hide.
// The G clusters of a key head share its Q/K conv state: the last of them to arrive at a counter
// per (key head, rank) shifts that rank's channels. Before griddepcontrol.wait a block reads only
// what the previous kernel cannot write (its state, its conv taps, the weights); launched
// serially the wait is a no-op. kSplit = 1 is the library's whole-early kernel in this form, the
// calibration (it came out 0.4 µs faster than the library's 4.45, which led to v17); kFlags are
// that whole head's variants and two ablations; kLibrary runs the library's own whole-early
// kernel (gdn_decode_fused.h) on the same buffers, so the two harnesses can be told apart from
// the two kernels. Every variant but the ablations is checked against an fp64 host reference of
// one step before it is timed.
// NVIDIA only (clusters):
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I src -o /tmp/split_head_step
//   kernels/experiments/split_head_step.cu && /tmp/split_head_step [whole]
// (`whole`: the whole-head variants only, those of v17 and v18 and the library's kernel.)
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "../gdn_decode_fused.h"
#include "../gdn_state_walks.h"
#include "cuda_check.h"
#include "graph_replays.h"

namespace cg = cooperative_groups;

constexpr int H = 16, HV = 48, K = 128, V = 128, W = 4, G = HV / H;
constexpr int kRow = 2 * H * K + 2 * HV * V;   // flat qkvz row: Q, K, V, Z of every head
constexpr int kChannels = 2 * H * K + HV * V;  // conv channels: Q, K, V
constexpr float kEps = 1e-6f;

__host__ __device__ inline float bf16_to_float(unsigned short x) {
  const uint32_t bits = static_cast<uint32_t>(x) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
__host__ __device__ inline unsigned short float_to_bf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even (inputs here are finite)
  return static_cast<unsigned short>(bits >> 16);
}
__device__ inline float silu(float x) {
  return x / (1.0f + expf(-x));
}

struct Layer {
  const unsigned short* qkvz;         // [batch][kRow]
  const unsigned short* ba;           // [batch][2 HV]: b then a (the Qwen3.5 ba row)
  unsigned short* conv;               // [batch][kChannels][W-1]
  const unsigned short* weight;       // [kChannels][W]
  const float* A_log;                 // [HV]
  const float* dt_bias;               // [HV]
  const unsigned short* norm_weight;  // [V]
  float* state;                       // [batch][HV][K][V]
  unsigned short* out;                // [batch][HV][V]
  int* counters;                      // [batch][H][kSplit], zero between launches
  float* workspace;                   // the library kernel's (kLibrary), unused by step
};

__device__ inline void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
__device__ inline void cluster_arrive_release() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
__device__ inline void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// kShareQk: the cluster's blocks split the key head's q/k conv and exchange it (as above); or
// every block convolves all of q and k itself (the library's halves and quarters) and the
// cluster only combines the RMSNorm.
// kFlags, on the whole head only: the library's choices and ablations (timed, some unchecked).
enum : int {
  kOutFirst = 1,      // every wave sums o^2 and the output is stored before the state (library)
  kWindowShared = 2,  // the Q/K windows also go to shared memory (v17's library, qk_window)
  kInputsEarly = 4,   // ablation: the step's inputs loaded before the wait
  kBare = 8,          // ablation: after the wait only the state is scaled and stored
  kFastRoots = 16,    // rsqrtf for the norms' roots
  kNoConvAfter = 32,  // the taps' share of the conv computed before the wait
  kPrefetch = 64,     // the step's input lines prefetched to L2 before the wait (a hint only)
  kFoldNorm = 128,    // projections of the raw q, k; the l2norm scales applied after the sums
  kLibrary = 256,     // the library's whole-early kernel itself on the same buffers, not step
};
template <int kSplit, int kThreads, bool kShareQk = true, int kFlags = 0>
__global__ void __launch_bounds__(kThreads) step(Layer L) {
  constexpr bool kExchange = kShareQk && kSplit > 1;
  constexpr int C = V / kSplit;           // columns per block
  constexpr int kQk = kExchange ? C : K;  // q (and k) channels the block convolves
  constexpr int kQuads = C / 4;
  constexpr int kRowStep = kThreads / kQuads;
  constexpr int kLoads = K / kRowStep;
  constexpr int kItems = 2 * kQk + 2 * C;  // q channels, k channels, v channels, z columns
  constexpr int kConvItems = 2 * kQk + C;
  constexpr int kSharers = kExchange ? G : G * kSplit;  // blocks reading one counter's Q/K taps
  constexpr int kPerThread = (kItems + kThreads - 1) / kThreads;
  constexpr int kWaves = kThreads / 32;
  static_assert(kQuads <= 32 && kThreads % kQuads == 0 && kRowStep * kLoads == K, "tiling");

  __shared__ float q[K], k[K], value[C], gate[C], u[C], o[C];
  __shared__ float reduction[kWaves * 2 * C];
  __shared__ float o_partial[kSplit];
  __shared__ int qk_last;
  __shared__ unsigned short qk_window[2 * K * W];

  if constexpr (kSplit > 1) cluster_arrive_relaxed();  // "this block runs", for the first push
  const int tid = threadIdx.x, lane = tid % 32, r = blockIdx.x, hv = blockIdx.y, b = blockIdx.z;
  const int h = hv / G, v0 = r * C, q0 = kExchange ? r * C : 0;
  int* qk_counter = L.counters + (b * H + h) * kSplit + (kExchange ? r : 0);

  // Before the wait: the conv taps and the weights, then the state slice (the library's order).
  unsigned short* conv = L.conv + static_cast<size_t>(b) * kChannels * (W - 1);
  const unsigned short* row = L.qkvz + static_cast<size_t>(b) * kRow;
  unsigned short window[kPerThread][W], weight[kPerThread][W];
  int channel[kPerThread], x_at[kPerThread];
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const int i = tid + j * kThreads;
    if (i >= kItems) continue;
    if (i < kConvItems) {
      if (i < kQk)
        channel[j] = h * K + q0 + i;
      else if (i < 2 * kQk)
        channel[j] = H * K + h * K + q0 + (i - kQk);
      else
        channel[j] = 2 * H * K + hv * V + v0 + (i - 2 * kQk);
      x_at[j] = channel[j];  // Q, K, V lie in the row in conv-channel order
#pragma unroll
      for (int t = 0; t + 1 < W; ++t) window[j][t] = conv[channel[j] * (W - 1) + t];
#pragma unroll
      for (int t = 0; t < W; ++t) weight[j][t] = L.weight[channel[j] * W + t];
    } else {
      x_at[j] = 2 * H * K + HV * V + hv * V + v0 + (i - kConvItems);
      weight[j][0] = L.norm_weight[v0 + (i - kConvItems)];
    }
  }
  const float A_log = L.A_log[hv], dt_bias = L.dt_bias[hv];
  float* slice = L.state + (static_cast<size_t>(b) * HV + hv) * K * V;
  const int quad = tid % kQuads, row0 = tid / kQuads;
  float4 s[kLoads];
#pragma unroll
  for (int i = 0; i < kLoads; ++i)
    s[i] = *reinterpret_cast<const float4*>(slice + (row0 + i * kRowStep) * V + v0 + 4 * quad);

  if constexpr (kFlags & kInputsEarly) {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j)
      if (tid + j * kThreads < kItems) window[j][W - 1] = row[x_at[j]];
  }
  float tap_sum[kPerThread];
  if constexpr (kFlags & kNoConvAfter) {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      tap_sum[j] = 0.0f;
#pragma unroll
      for (int t = 0; t + 1 < W; ++t)
        tap_sum[j] += bf16_to_float(weight[j][t]) * bf16_to_float(window[j][t]);
    }
  }
  if constexpr (kFlags & kPrefetch) {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j)
      if (tid + j * kThreads < kItems)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(row + x_at[j]));
    if (tid == 0) {
      asm volatile("prefetch.global.L2 [%0];" ::"l"(L.ba + b * 2 * HV + hv));
      asm volatile("prefetch.global.L2 [%0];" ::"l"(L.ba + b * 2 * HV + HV + hv));
    }
  }
  unsigned short a_raw = 0, b_raw = 0;
  if constexpr (kFlags & kInputsEarly)
    a_raw = L.ba[b * 2 * HV + HV + hv], b_raw = L.ba[b * 2 * HV + hv];
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
  if constexpr ((kFlags & kBare) != 0) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int key = row0 + i * kRowStep;
      float4 t = s[i];
      t.x *= 0.5f, t.y *= 0.5f, t.z *= 0.5f, t.w *= 0.5f;
      *reinterpret_cast<float4*>(slice + key * V + v0 + 4 * quad) = t;
    }
    return;
  }

  // The step's inputs, then the conv; q and k go to every block of the cluster.
  if constexpr ((kFlags & kInputsEarly) == 0) {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j)
      if (tid + j * kThreads < kItems) window[j][W - 1] = row[x_at[j]];
    a_raw = L.ba[b * 2 * HV + HV + hv], b_raw = L.ba[b * 2 * HV + hv];
  }
  if constexpr (kExchange) cluster_wait();
#pragma unroll
  for (int j = 0; j < kPerThread; ++j) {
    const int i = tid + j * kThreads;
    if (i >= kItems) continue;
    if (i < kConvItems) {
      float sum = 0.0f;
      if constexpr (kFlags & kNoConvAfter) {
        sum = tap_sum[j] + bf16_to_float(weight[j][W - 1]) * bf16_to_float(window[j][W - 1]);
      } else {
#pragma unroll
        for (int t = 0; t < W; ++t)
          sum += bf16_to_float(weight[j][t]) * bf16_to_float(window[j][t]);
      }
      const float y = silu(sum);
      if (i < 2 * kQk) {
        if constexpr (kFlags & kWindowShared) {
#pragma unroll
          for (int t = 0; t < W; ++t) qk_window[i * W + t] = window[j][t];
        }
        float* target = i < kQk ? &q[q0 + i] : &k[q0 + i - kQk];
        if constexpr (kExchange) {
          cg::cluster_group cluster = cg::this_cluster();
#pragma unroll
          for (int rank = 0; rank < kSplit; ++rank) *cluster.map_shared_rank(target, rank) = y;
        } else {
          *target = y;
        }
      } else {
        value[i - 2 * kQk] = y;
#pragma unroll
        for (int t = 0; t + 1 < W; ++t) conv[channel[j] * (W - 1) + t] = window[j][t + 1];
      }
    } else {
      gate[i - kConvItems] = silu(bf16_to_float(window[j][W - 1])) * bf16_to_float(weight[j][0]);
    }
  }
  if constexpr (kExchange) {
    cluster_arrive_release();
    cluster_wait();
  } else {
    __syncthreads();
  }
  if (tid == 0) qk_last = atomicAdd(qk_counter, 1) == kSharers - 1;

  // kFoldNorm: the projections of the raw q and k first, so that the l2norm below overlaps them.
  constexpr bool kFold = (kFlags & kFoldNorm) != 0;
  float a[4] = {0, 0, 0, 0}, c[4] = {0, 0, 0, 0};
  if constexpr (kFold) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int key = row0 + i * kRowStep;
      const float kh = k[key], qh = q[key];
      a[0] += s[i].x * kh, a[1] += s[i].y * kh, a[2] += s[i].z * kh, a[3] += s[i].w * kh;
      c[0] += s[i].x * qh, c[1] += s[i].y * qh, c[2] += s[i].z * qh, c[3] += s[i].w * qh;
    }
  }

  // l2norm (every wave sums q, k itself) and the gates.
  float sums[3] = {0.0f, 0.0f, 0.0f};
  for (int i = lane; i < K; i += 32) {
    sums[0] += q[i] * q[i];
    sums[1] += k[i] * k[i];
    sums[2] += q[i] * k[i];
  }
#pragma unroll
  for (int m = 16; m > 0; m /= 2)
#pragma unroll
    for (float& sum : sums) sum += __shfl_xor_sync(0xffffffffu, sum, m);
  const bool fast_roots = (kFlags & kFastRoots) != 0;
  const float q_scale = (fast_roots ? rsqrtf(sums[0] + kEps) : 1.0f / sqrtf(sums[0] + kEps)) *
                        (1.0f / sqrtf(static_cast<float>(K)));
  const float k_scale = fast_roots ? rsqrtf(sums[1] + kEps) : 1.0f / sqrtf(sums[1] + kEps);
  const float k_dot_q = sums[2] * q_scale * k_scale;
  const float x = bf16_to_float(a_raw) + dt_bias;
  const float softplus = x > 20.0f ? x : log1pf(expf(x));
  const float decay = expf(-expf(A_log) * softplus);
  const float beta = 1.0f / (1.0f + expf(-bf16_to_float(b_raw)));

  // a = S^T khat, c = S^T qhat over the block's columns: lanes, then waves.
  if constexpr (!kFold) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int key = row0 + i * kRowStep;
      const float kh = k[key] * k_scale, qh = q[key] * q_scale;
      a[0] += s[i].x * kh, a[1] += s[i].y * kh, a[2] += s[i].z * kh, a[3] += s[i].w * kh;
      c[0] += s[i].x * qh, c[1] += s[i].y * qh, c[2] += s[i].z * qh, c[3] += s[i].w * qh;
    }
  }
#pragma unroll
  for (int m = 16; m >= kQuads; m /= 2)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      a[j] += __shfl_xor_sync(0xffffffffu, a[j], m);
      c[j] += __shfl_xor_sync(0xffffffffu, c[j], m);
    }
  if (lane < kQuads) {
    float* partial = reduction + tid / 32 * 2 * C;
#pragma unroll
    for (int j = 0; j < 4; ++j) partial[4 * quad + j] = a[j], partial[C + 4 * quad + j] = c[j];
  }
  __syncthreads();
  for (int col = tid; col < C; col += kThreads) {
    float a_sum = 0.0f, c_sum = 0.0f;
    for (int w = 0; w < kWaves; ++w)
      a_sum += reduction[w * 2 * C + col], c_sum += reduction[w * 2 * C + C + col];
    if constexpr (kFold) a_sum *= k_scale, c_sum *= q_scale;
    const float uc = beta * (value[col] - decay * a_sum);
    u[col] = kFold ? uc * k_scale : uc;  // folded: the update multiplies the raw k
    o[col] = decay * c_sum + k_dot_q * uc;
  }
  __syncthreads();

  unsigned short* out = L.out + (static_cast<size_t>(b) * HV + hv) * V + v0;
  if constexpr ((kFlags & kOutFirst) != 0 && kSplit == 1) {
    float sum = 0.0f;
    for (int col = lane; col < C; col += 32) sum += o[col] * o[col];
#pragma unroll
    for (int m = 16; m > 0; m /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, m);
    const float inverse_rms = 1.0f / sqrtf(sum / static_cast<float>(V) + kEps);
    for (int col = tid; col < C; col += kThreads)
      out[col] = float_to_bf16(o[col] * inverse_rms * gate[col]);
  }
  // The RMSNorm's partial sum of o^2 to every block, then the state stores, then the norm.
  if constexpr ((kFlags & kOutFirst) == 0 || kSplit > 1) {
    if constexpr (kSplit > 1 && !kExchange) cluster_wait();  // every block runs: push
    if (tid < 32) {
      float sum = 0.0f;
      for (int col = lane; col < C; col += 32) sum += o[col] * o[col];
#pragma unroll
      for (int m = 16; m > 0; m /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, m);
      if constexpr (kSplit > 1) {
        if (lane < kSplit) *cg::this_cluster().map_shared_rank(&o_partial[r], lane) = sum;
      } else if (lane == 0) {
        o_partial[0] = sum;
      }
    }
    if constexpr (kSplit > 1) cluster_arrive_release();
  }
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int key = row0 + i * kRowStep;
    const float kh = kFold ? k[key] : k[key] * k_scale;
    const float* uc = u + 4 * quad;
    float4 t;
    t.x = decay * s[i].x + kh * uc[0], t.y = decay * s[i].y + kh * uc[1];
    t.z = decay * s[i].z + kh * uc[2], t.w = decay * s[i].w + kh * uc[3];
    *reinterpret_cast<float4*>(slice + key * V + v0 + 4 * quad) = t;
  }
  if constexpr ((kFlags & kOutFirst) == 0 || kSplit > 1) {
    if constexpr (kSplit > 1)
      cluster_wait();
    else
      __syncthreads();
    float total = 0.0f;
    for (int rank = 0; rank < kSplit; ++rank) total += o_partial[rank];  // fixed order
    const float inverse_rms = 1.0f / sqrtf(total / static_cast<float>(V) + kEps);
    for (int col = tid; col < C; col += kThreads)
      out[col] = float_to_bf16(o[col] * inverse_rms * gate[col]);
  }
  // The last of the key head's G clusters to read this rank's Q/K taps shifts them.
  if (qk_last) {
    if (tid == 0) *qk_counter = 0;
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int i = tid + j * kThreads;
      if (i < 2 * kQk)
#pragma unroll
        for (int t = 0; t + 1 < W; ++t) conv[channel[j] * (W - 1) + t] = window[j][t + 1];
    }
  }
}

// ---- host: buffers, reference, timing ----

struct HostLayer {
  std::vector<unsigned short> qkvz, ba, conv, weight, norm_weight;
  std::vector<float> A_log, dt_bias, state;
};

HostLayer random_layer(int batch, std::mt19937& rng) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  auto bf16s = [&](size_t n, float scale, float shift) {
    std::vector<unsigned short> v(n);
    for (auto& x : v) x = float_to_bf16(shift + scale * unit(rng));
    return v;
  };
  HostLayer l;
  l.qkvz = bf16s(static_cast<size_t>(batch) * kRow, 1.0f, 0.0f);
  l.ba = bf16s(static_cast<size_t>(batch) * 2 * HV, 1.0f, 0.0f);
  l.conv = bf16s(static_cast<size_t>(batch) * kChannels * (W - 1), 1.0f, 0.0f);
  l.weight = bf16s(static_cast<size_t>(kChannels) * W, 0.5f, 0.0f);
  l.norm_weight = bf16s(V, 0.2f, 1.0f);
  for (int i = 0; i < HV; ++i)
    l.A_log.push_back(0.5f * unit(rng)), l.dt_bias.push_back(0.5f * unit(rng));
  l.state.resize(static_cast<size_t>(batch) * HV * K * V);
  for (float& x : l.state) x = 0.1f * unit(rng);
  return l;
}

// One step in fp64: the output and the new state and conv state.
void reference_step(int batch, const HostLayer& l, std::vector<double>& out,
                    std::vector<double>& state, std::vector<unsigned short>& conv) {
  auto f = [](unsigned short x) { return static_cast<double>(bf16_to_float(x)); };
  auto silu_d = [](double x) { return x / (1.0 + std::exp(-x)); };
  out.assign(static_cast<size_t>(batch) * HV * V, 0.0);
  state.assign(l.state.begin(), l.state.end());
  conv = l.conv;
  for (int b = 0; b < batch; ++b) {
    const unsigned short* row = l.qkvz.data() + static_cast<size_t>(b) * kRow;
    const unsigned short* taps = l.conv.data() + static_cast<size_t>(b) * kChannels * (W - 1);
    std::vector<double> y(kChannels);
    for (int ch = 0; ch < kChannels; ++ch) {
      double sum = f(l.weight[ch * W + W - 1]) * f(row[ch]);
      for (int t = 0; t + 1 < W; ++t) sum += f(l.weight[ch * W + t]) * f(taps[ch * (W - 1) + t]);
      y[ch] = silu_d(sum);
      unsigned short* shifted =
          conv.data() + static_cast<size_t>(b) * kChannels * (W - 1) + ch * (W - 1);
      for (int t = 0; t + 2 < W; ++t) shifted[t] = taps[ch * (W - 1) + t + 1];
      shifted[W - 2] = row[ch];
    }
    for (int hv = 0; hv < HV; ++hv) {
      const int h = hv / G;
      double qq = 0, kk = 0;
      for (int i = 0; i < K; ++i)
        qq += y[h * K + i] * y[h * K + i], kk += y[H * K + h * K + i] * y[H * K + h * K + i];
      std::vector<double> qh(K), kh(K);
      for (int i = 0; i < K; ++i) {
        qh[i] = y[h * K + i] / std::sqrt(qq + kEps) / std::sqrt(static_cast<double>(K));
        kh[i] = y[H * K + h * K + i] / std::sqrt(kk + kEps);
      }
      const double x = f(l.ba[b * 2 * HV + HV + hv]) + l.dt_bias[hv];
      const double decay = std::exp(-std::exp(static_cast<double>(l.A_log[hv])) *
                                    (x > 20 ? x : std::log1p(std::exp(x))));
      const double beta = 1.0 / (1.0 + std::exp(-f(l.ba[b * 2 * HV + hv])));
      double* S = state.data() + (static_cast<size_t>(b) * HV + hv) * K * V;
      std::vector<double> o(V);
      double ss = 0;
      for (int v = 0; v < V; ++v) {
        double a = 0;
        for (int i = 0; i < K; ++i) a += S[i * V + v] * kh[i];
        const double uv = beta * (y[2 * H * K + hv * V + v] - decay * a);
        double c = 0;
        for (int i = 0; i < K; ++i) {
          S[i * V + v] = decay * S[i * V + v] + kh[i] * uv;
          c += S[i * V + v] * qh[i];
        }
        o[v] = c;
        ss += c * c;
      }
      const double inv = 1.0 / std::sqrt(ss / V + kEps);
      for (int v = 0; v < V; ++v) {
        const double z = f(row[2 * H * K + HV * V + hv * V + v]);
        out[(static_cast<size_t>(b) * HV + hv) * V + v] =
            o[v] * inv * silu_d(z) * f(l.norm_weight[v]);
      }
    }
  }
}

template <class T>
T* upload(const std::vector<T>& host) {
  T* device;
  CK(cudaMalloc(&device, host.size() * sizeof(T)));
  CK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

struct DeviceLayer {
  Layer args;
  std::vector<void*> owned;
};

DeviceLayer upload_layer(const HostLayer& h, int batch) {
  DeviceLayer d;
  auto keep = [&](auto* p) {
    d.owned.push_back(const_cast<void*>(static_cast<const void*>(p)));
    return p;
  };
  d.args.qkvz = keep(upload(h.qkvz));
  d.args.ba = keep(upload(h.ba));
  d.args.conv = keep(upload(h.conv));
  d.args.weight = keep(upload(h.weight));
  d.args.A_log = keep(upload(h.A_log));
  d.args.dt_bias = keep(upload(h.dt_bias));
  d.args.norm_weight = keep(upload(h.norm_weight));
  d.args.state = keep(upload(h.state));
  unsigned short* out;
  CK(cudaMalloc(&out, static_cast<size_t>(batch) * HV * V * 2));
  d.args.out = keep(out);
  int* counters;
  CK(cudaMalloc(&counters, static_cast<size_t>(batch) * H * 16 * sizeof(int)));
  CK(cudaMemset(counters, 0, static_cast<size_t>(batch) * H * 16 * sizeof(int)));
  d.args.counters = keep(counters);
  float* workspace;
  CK(cudaMalloc(&workspace, layoutcheck::kernels::fused_workspace_floats(batch, HV, V) * 4));
  d.args.workspace = keep(workspace);
  return d;
}

template <int kSplit, int kThreads, bool kShareQk, int kFlags>
void launch(const Layer& layer, int batch, bool overlapped, cudaStream_t stream) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(kSplit, HV, batch);
  config.blockDim = dim3(kThreads);
  config.stream = stream;
  cudaLaunchAttribute attrs[2];
  int n = 0;
  if (kSplit > 1) {
    attrs[n].id = cudaLaunchAttributeClusterDimension;
    attrs[n].val.clusterDim.x = kSplit, attrs[n].val.clusterDim.y = 1,
    attrs[n].val.clusterDim.z = 1;
    ++n;
  }
  if (overlapped) {
    attrs[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attrs[n].val.programmaticStreamSerializationAllowed = 1;
    ++n;
  }
  config.attrs = attrs;
  config.numAttrs = n;
  if constexpr ((kFlags & kLibrary) != 0) {
    namespace lk = layoutcheck::kernels;
    using Walk = lk::LoadsBeforeWait<lk::WholeHead<lk::StateHkv>>;
    static_assert(kSplit == 1 && kThreads == Walk::kThreads, "the library's whole head");
    layoutcheck::GdnDecodeArgs args{};
    args.qkvz = layer.qkvz, args.ba = layer.ba, args.conv_state = layer.conv;
    args.state = layer.state, args.out = layer.out, args.conv_weight = layer.weight;
    args.A_log = layer.A_log, args.dt_bias = layer.dt_bias, args.norm_weight = layer.norm_weight;
    args.sync_counters = layer.counters, args.workspace = layer.workspace;
    args.sync_counter_count = lk::fused_sync_counters(batch, H, HV);
    args.workspace_floats = lk::fused_workspace_floats(batch, HV, V);
    args.batch = batch, args.H = H, args.HV = HV, args.K = K, args.V = V, args.W = W;
    args.qkvz_row_stride = kRow, args.ba_row_stride = 2 * HV;
    args.state_row_stride = static_cast<long long>(HV) * K * V;
    config.gridDim = lk::head_block_grid(args, 1);
    CK(cudaLaunchKernelEx(&config, lk::gdn_decode_fused_fast<lk::FlatLayout, Walk, K, V, W>, args));
  } else {
    CK(cudaLaunchKernelEx(&config, step<kSplit, kThreads, kShareQk, kFlags>, layer));
  }
}

// One step from the host layer, against the fp64 reference: the largest output error relative
// to its element (below), the state's relative L2 error, and whether the conv state is bitwise
// right.
template <int kSplit, int kThreads, bool kShareQk, int kFlags>
bool check(const HostLayer& host, int batch, const char* name) {
  std::vector<double> out_ref, state_ref;
  std::vector<unsigned short> conv_ref;
  reference_step(batch, host, out_ref, state_ref, conv_ref);
  DeviceLayer d = upload_layer(host, batch);
  launch<kSplit, kThreads, kShareQk, kFlags>(d.args, batch, false, 0);
  CK(cudaDeviceSynchronize());
  std::vector<unsigned short> out(out_ref.size()), conv(conv_ref.size());
  std::vector<float> state(state_ref.size());
  CK(cudaMemcpy(out.data(), d.args.out, out.size() * 2, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(conv.data(), d.args.conv, conv.size() * 2, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(state.data(), d.args.state, state.size() * 4, cudaMemcpyDeviceToHost));
  // The output's error per element, relative to the element (bf16 rounds to within 2^-9 of
  // it) plus 1 % of the output's RMS for elements near zero: independent of how large the
  // largest element happens to be.
  double out_rms = 0, out_rel = 0, s_err = 0, s_norm = 0;
  for (double x : out_ref) out_rms += x * x;
  out_rms = std::sqrt(out_rms / out.size());
  for (size_t i = 0; i < out.size(); ++i)
    out_rel = std::max(out_rel, std::abs(bf16_to_float(out[i]) - out_ref[i]) /
                                    (std::abs(out_ref[i]) + 1e-2 * out_rms));
  for (size_t i = 0; i < state.size(); ++i) {
    s_err += (state[i] - state_ref[i]) * (state[i] - state_ref[i]);
    s_norm += state_ref[i] * state_ref[i];
  }
  const double s_rel = std::sqrt(s_err / s_norm);
  const bool conv_ok = conv == conv_ref;
  const bool ok = out_rel < 1e-2 && s_rel < 1e-5 && conv_ok;
  std::printf("check %-22s batch %d: out max rel err %.2e, state rel L2 %.2e, conv %s: %s\n", name,
              batch, out_rel, s_rel, conv_ok ? "bitwise" : "WRONG", ok ? "ok" : "FAILED");
  for (void* p : d.owned) CK(cudaFree(p));
  return ok;
}

template <int kSplit, int kThreads, bool kShareQk, int kFlags>
double time_layers(const std::vector<DeviceLayer>& layers, int batch, bool overlapped) {
  cudaStream_t stream;
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (const DeviceLayer& layer : layers)
    launch<kSplit, kThreads, kShareQk, kFlags>(layer.args, batch, overlapped, stream);
  CK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<double> t =
      replay_us_per_layer(exec, stream, 10, 60, static_cast<int>(layers.size()));
  std::sort(t.begin(), t.end());
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  CK(cudaStreamDestroy(stream));
  return t[t.size() / 2];
}

// 48 layers of one batch size, each with its own buffers; every variant is timed on them.
struct Model {
  int batch;
  std::vector<DeviceLayer> layers;
};

template <int kSplit, int kThreads, bool kShareQk = true, int kFlags = 0>
bool variant(const char* name, const std::vector<Model>& models) {
  if (kSplit > 8)
    CK(cudaFuncSetAttribute(step<kSplit, kThreads, kShareQk, kFlags>,
                            cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  std::mt19937 rng(7);
  constexpr bool kAblation = (kFlags & (kInputsEarly | kBare)) != 0;
  for (int batch : {1, 3}) {
    const HostLayer host = random_layer(batch, rng);
    if (kAblation) break;
    if (!check<kSplit, kThreads, kShareQk, kFlags>(host, batch, name)) return false;
  }
  for (const Model& model : models) {
    const double serial =
        time_layers<kSplit, kThreads, kShareQk, kFlags>(model.layers, model.batch, false);
    const double overlapped =
        time_layers<kSplit, kThreads, kShareQk, kFlags>(model.layers, model.batch, true);
    std::printf("| %-22s | %5d | %8.2f | %8.2f |\n", name, model.batch, serial, overlapped);
  }
  return true;
}

int main(int argc, char** argv) {
  const bool whole_only = argc > 1 && std::strcmp(argv[1], "whole") == 0;
  std::printf("| variant (blocks a head x threads) | batch | serial us/layer | overlapped |\n");
  std::printf("|---|---|---|---|\n");
  std::mt19937 rng(11);
  std::vector<Model> models;
  for (int batch : {1, 2, 8}) {
    models.push_back({batch, {}});
    for (int i = 0; i < 48; ++i)
      models.back().layers.push_back(upload_layer(random_layer(batch, rng), batch));
  }
  // The whole variant first, to bring the GPU off its idle clocks (its rows are labelled as
  // such), then again: the two agree when it has (they did, runs 49-51).
  bool ok = variant<1, 256>("whole (warming up)", models);
  ok = variant<1, 256>("whole 1 x 256", models) && ok;
  if (whole_only) {
    constexpr int kBest = kFastRoots | kNoConvAfter;
    ok = variant<1, 256, true, kPrefetch>("whole, prefetch", models) && ok;
    ok = variant<1, 256, true, kBest>("whole, rsqrtf+taps early", models) && ok;
    ok = variant<1, 256, true, kBest | kPrefetch>("whole, rsqrtf+taps+prefetch", models) && ok;
    ok = variant<1, 256, true, kFastRoots | kPrefetch>("whole, rsqrtf+prefetch", models) && ok;
    ok = variant<1, 256, true, kInputsEarly>("ablation: inputs early", models) && ok;
    ok = variant<1, 256, true, kFoldNorm>("whole, norm folded", models) && ok;
    ok = variant<1, 256, true, kFastRoots | kPrefetch | kFoldNorm>("whole, rsqrtf+prefetch+fold",
                                                                   models) &&
         ok;
    ok = variant<1, 256, true, kLibrary>("library whole-early", models) && ok;
    ok = variant<1, 256>("whole, again", models) && ok;
    return ok ? 0 : 1;
  }
  ok = variant<2, 256>("halves 2 x 256", models) && ok;
  ok = variant<4, 128>("quarters 4 x 128", models) && ok;
  ok = variant<4, 256>("quarters 4 x 256", models) && ok;
  ok = variant<8, 64>("eighths 8 x 64", models) && ok;
  ok = variant<8, 128>("eighths 8 x 128", models) && ok;
  ok = variant<16, 64>("sixteenths 16 x 64", models) && ok;
  ok = variant<2, 256, false>("halves, own q/k", models) && ok;
  ok = variant<4, 128, false>("quarters, own q/k", models) && ok;
  ok = variant<1, 256, true, kOutFirst>("whole, out first", models) && ok;
  ok = variant<1, 256, true, kWindowShared>("whole, window shared", models) && ok;
  ok = variant<1, 256, true, kOutFirst | kWindowShared>("whole, out first+window", models) && ok;
  ok = variant<1, 256, true, kFastRoots>("whole, rsqrtf", models) && ok;
  ok = variant<1, 256, true, kNoConvAfter>("whole, taps summed early", models) && ok;
  ok = variant<1, 256, true, kInputsEarly>("ablation: inputs early", models) && ok;
  ok = variant<1, 256, true, kBare>("ablation: bare pass", models) && ok;
  ok = variant<1, 256>("whole, again", models) && ok;
  return ok ? 0 : 1;
}
