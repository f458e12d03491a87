// The body of a simple ported GDN decode kernel written against the ABI (kernels/gdn/ABI.md): one
// block per (value head, sequence), any sizes. Its addressing is a policy `Addressing`, so each
// file in this folder is one port: correct_native.hip (Qwen3.5 flat, from the generated contract
// headers), upstream_port.hip (Qwen3-Next interleaved), and the mutants, each breaking
// one thing. `layoutcheck run` compiles them at run time (hipRTC / NVRTC).
//
// Addressing provides, all in elements:
//   q(d, h, k), k(d, h, k), v(d, hv, v), z(d, hv, v)   offsets in a qkvz row
//   b(d, hv), a(d, hv)                                 offsets in a ba row
//   s(d, hv, k, v)                                     offset in a state row
//   key_head(d, hv)                                    the key head value head hv reads
//   qkvz_row(args, row), ba_row(args, row)             where batch row `row` starts
//   kSkipL2norm                                        true only for the numeric mutant
#pragma once

#include "gdn_abi.h"
#include "layoutcheck/platform/bf16.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace port {

using layoutcheck::GdnDecodeArgs;

struct Dims {
  long long H, HV, K, V, W, G;
};

__device__ inline Dims dims_of(const GdnDecodeArgs& args) {
  return {args.H, args.HV, args.K, args.V, args.W, args.HV / args.H};
}

__device__ inline float silu(float x) {
  return x / (1.0f + expf(-x));
}
__device__ inline float bf16(unsigned short bits) {
  return layoutcheck::bf16_to_float(bits);
}

// conv channel numbering [Q all | K all | V all], conv state [C][W-1] (contracts/gdn/conv_*.yaml)
__device__ inline long long q_channel(const Dims& d, long long h, long long k) {
  return h * d.K + k;
}
__device__ inline long long k_channel(const Dims& d, long long h, long long k) {
  return d.H * d.K + h * d.K + k;
}
__device__ inline long long v_channel(const Dims& d, long long hv, long long v) {
  return 2 * d.H * d.K + hv * d.V + v;
}

__device__ inline float conv(const unsigned short* taps, const unsigned short* weights,
                             unsigned short x, long long W) {
  float sum = 0.0f;
  for (long long t = 0; t < W - 1; ++t) sum += bf16(weights[t]) * bf16(taps[t]);
  return silu(sum + bf16(weights[W - 1]) * bf16(x));
}

__device__ inline void shift(unsigned short* taps, unsigned short x, long long W) {
  for (long long t = 0; t + 2 < W; ++t) taps[t] = taps[t + 1];
  taps[W - 2] = x;
}

// Shared memory: (2K + 4V + 3 * 1024 / wave) floats (the manifest's shared_bytes).
template <class Addressing>
__device__ void decode(const GdnDecodeArgs& args) {
  extern __shared__ float shared[];
  const Dims d = dims_of(args);
  const long long hv = blockIdx.x, row = blockIdx.y;
  const long long kh = Addressing::key_head(d, hv);
  float* q = shared;
  float* k = q + d.K;
  float* v = k + d.K;
  float* gate = v + d.V;
  float* u = gate + d.V;
  float* o = u + d.V;
  float* scratch = o + d.V;
  __shared__ int last;

  const unsigned short* qkvz = args.qkvz + Addressing::qkvz_row(args, row);
  const unsigned short* ba = args.ba + Addressing::ba_row(args, row);
  const long long C = 2 * d.H * d.K + d.HV * d.V;
  unsigned short* conv_state = args.conv_state + row * C * (d.W - 1);

  for (long long i = threadIdx.x; i < 2 * d.K + 2 * d.V; i += blockDim.x) {
    if (i < d.K) {
      const long long c = q_channel(d, kh, i);
      q[i] = conv(conv_state + c * (d.W - 1), args.conv_weight + c * d.W,
                  qkvz[Addressing::q(d, kh, i)], d.W);
    } else if (i < 2 * d.K) {
      const long long c = k_channel(d, kh, i - d.K);
      k[i - d.K] = conv(conv_state + c * (d.W - 1), args.conv_weight + c * d.W,
                        qkvz[Addressing::k(d, kh, i - d.K)], d.W);
    } else if (i < 2 * d.K + d.V) {
      const long long j = i - 2 * d.K;
      const long long c = v_channel(d, hv, j);
      const unsigned short x = qkvz[Addressing::v(d, hv, j)];
      v[j] = conv(conv_state + c * (d.W - 1), args.conv_weight + c * d.W, x, d.W);
      shift(conv_state + c * (d.W - 1), x, d.W);  // this block's own channels
    } else {
      const long long j = i - 2 * d.K - d.V;
      gate[j] = silu(bf16(qkvz[Addressing::z(d, hv, j)])) * bf16(args.norm_weight[j]);
    }
  }
  const float a = bf16(ba[Addressing::a(d, hv)]);
  const float b = bf16(ba[Addressing::b(d, hv)]);
  const float dt = a + args.dt_bias[hv];
  const float g = -expf(args.A_log[hv]) * (dt > 20.0f ? dt : log1pf(expf(dt)));
  const float decay = expf(g), beta = 1.0f / (1.0f + expf(-b));
  __syncthreads();

  // Key head kh's q/k conv state is shared by the G value heads reading it: the last of them to
  // finish reading shifts it (sync counters, zero at launch, left zero).
  if (threadIdx.x == 0) {
    __threadfence();
    int* counter = args.sync_counters + row * d.H + kh;
    last = atomicAdd(counter, 1) == d.G - 1;
    if (last) *counter = 0;
  }
  __syncthreads();
  if (last) {
    __threadfence();
    for (long long i = threadIdx.x; i < 2 * d.K; i += blockDim.x) {
      const bool is_q = i < d.K;
      const long long kk = is_q ? i : i - d.K;
      const long long c = is_q ? q_channel(d, kh, kk) : k_channel(d, kh, kk);
      shift(conv_state + c * (d.W - 1),
            qkvz[is_q ? Addressing::q(d, kh, kk) : Addressing::k(d, kh, kk)], d.W);
    }
  }

  float sums[3] = {0.0f, 0.0f, 0.0f};
  for (long long i = threadIdx.x; i < d.K; i += blockDim.x) {
    sums[0] += q[i] * q[i];
    sums[1] += k[i] * k[i];
  }
  layoutcheck::wave::block_sum<3>(sums, scratch);
  const float q_scale = (Addressing::kSkipL2norm ? 1.0f : 1.0f / sqrtf(sums[0] + 1e-6f)) /
                        sqrtf(static_cast<float>(d.K));
  const float k_scale = Addressing::kSkipL2norm ? 1.0f : 1.0f / sqrtf(sums[1] + 1e-6f);

  float* state = args.state + row * args.state_row_stride;
  for (long long col = threadIdx.x; col < d.V; col += blockDim.x) {
    float sk = 0.0f;
    for (long long key = 0; key < d.K; ++key)
      sk += state[Addressing::s(d, hv, key, col)] * k[key] * k_scale;
    u[col] = beta * (v[col] - decay * sk);
  }
  __syncthreads();
  for (long long e = threadIdx.x; e < d.K * d.V; e += blockDim.x) {
    const long long key = e / d.V, col = e % d.V;
    float* s = state + Addressing::s(d, hv, key, col);
    *s = decay * *s + k[key] * k_scale * u[col];
  }
  __syncthreads();
  float norm[1] = {0.0f};
  for (long long col = threadIdx.x; col < d.V; col += blockDim.x) {
    float sum = 0.0f;
    for (long long key = 0; key < d.K; ++key)
      sum += state[Addressing::s(d, hv, key, col)] * q[key] * q_scale;
    o[col] = sum;
    norm[0] += sum * sum;
  }
  layoutcheck::wave::block_sum<1>(norm, scratch);
  const float inverse_rms = 1.0f / sqrtf(norm[0] / static_cast<float>(d.V) + 1e-6f);
  for (long long col = threadIdx.x; col < d.V; col += blockDim.x)
    args.out[Addressing::out(d, row, hv, col)] =
        layoutcheck::float_to_bf16(o[col] * inverse_rms * gate[col]);
}

}  // namespace port
