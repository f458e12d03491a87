// The baseline: the production decode path on the flat (Qwen3.5) layout as separate kernels, the
// way a PyTorch model runs it — causal_conv1d_update, the gating kernel, the recurrent
// gated-delta-rule kernel (l2norm inside, as flash-linear-attention does), and the gated RMSNorm.
// Each reads the flat buffers in place (no copies production does not make); intermediates go
// through device memory between launches (BaselineBuffers). The recurrent kernel shares the
// state-streaming code with the fused kernel, so the comparison measures fusion and layout, not
// a weaker inner loop.
#include <string>

#include "gdn_decode_fused.h"
#include "gdn_kernels.h"
#include "gdn_state_tile.h"
#include "gdn_state_walks.h"
#include "layoutcheck/gpu/check.h"

namespace layoutcheck::kernels {
namespace {

constexpr int kElementwiseThreads = 256;
constexpr int kNormThreads = 128;

// One thread per conv channel, channels numbered by the conv_channels contract.
__global__ void __launch_bounds__(kElementwiseThreads)
    gdn_baseline_conv(GdnDecodeArgs args, BaselineBuffers buffers) {
  await_previous_kernel();
  const GdnDims d = dims_of(args);
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int b = static_cast<int>(blockIdx.y);
  const int channels = d.conv_channels();
  if (i >= channels) return;
  const unsigned short* row = args.qkvz + b * args.qkvz_row_stride;
  unsigned short* conv = args.conv_state + b * static_cast<long long>(channels) * (d.W - 1);
  int offset, channel, taps;
  if (i < d.H * d.K) {  // Q[h, k]
    const int h = i / d.K, k = i % d.K;
    offset = FlatLayout::q(d, h, k), channel = ConvLayout::q_channel(d, h, k);
    taps = ConvLayout::q_taps(d, h, k);
  } else if (i < 2 * d.H * d.K) {  // K[h, k]
    const int h = (i - d.H * d.K) / d.K, k = (i - d.H * d.K) % d.K;
    offset = FlatLayout::k(d, h, k), channel = ConvLayout::k_channel(d, h, k);
    taps = ConvLayout::k_taps(d, h, k);
  } else {  // V[hv, v]
    const int hv = (i - 2 * d.H * d.K) / d.V, v = (i - 2 * d.H * d.K) % d.V;
    offset = FlatLayout::v(d, hv, v), channel = ConvLayout::v_channel(d, hv, v);
    taps = ConvLayout::v_taps(d, hv, v);
  }
  const unsigned short x = row[offset];
  buffers.conv_out[static_cast<long long>(b) * channels + channel] =
      conv_channel(conv + taps, args.conv_weight + static_cast<long long>(channel) * d.W, x, d.W);
  shift_taps(conv + taps, x, d.W);
}

__global__ void __launch_bounds__(kElementwiseThreads)
    gdn_baseline_gating(GdnDecodeArgs args, BaselineBuffers buffers) {
  await_previous_kernel();
  const GdnDims d = dims_of(args);
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= args.batch * d.HV) return;
  const int b = static_cast<int>(i / d.HV), hv = static_cast<int>(i % d.HV);
  const unsigned short* row = args.ba + b * args.ba_row_stride;
  const float a = bf16_at(row, FlatLayout::a(d, hv));
  buffers.g[i] = -expf(args.A_log[hv]) * softplus(a + args.dt_bias[hv]);
  buffers.beta[i] = sigmoid(bf16_at(row, FlatLayout::b(d, hv)));
}

// Stages q, k (key head h) and the value columns [v0, v0+tile) of value head hv from the conv
// output.
__device__ void stage_from_conv_out(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                                    const GdnDims& d, int b, int h, int hv, int v0, int tile,
                                    float* q, float* k, float* value) {
  const float* conv = buffers.conv_out + static_cast<long long>(b) * d.conv_channels();
  for (int i = static_cast<int>(threadIdx.x); i < 2 * d.K + tile;
       i += static_cast<int>(blockDim.x)) {
    if (i < d.K)
      q[i] = conv[ConvLayout::q_channel(d, h, i)];
    else if (i < 2 * d.K)
      k[i - d.K] = conv[ConvLayout::k_channel(d, h, i - d.K)];
    else
      value[i - 2 * d.K] = conv[ConvLayout::v_channel(d, hv, v0 + i - 2 * d.K)];
  }
}

__device__ inline Gates gates_from_buffers(const BaselineBuffers& buffers, long long head) {
  return {expf(buffers.g[head]), buffers.beta[head]};
}

// K = kKeyDim, V = kValueDim and the conv width kW at compile time (the fast path); Walk and the
// grid as for gdn_decode_fused_fast.
template <class Walk, int kKeyDim, int kValueDim, int kW>
__global__ void __launch_bounds__(Walk::kThreads, Walk::kMinBlocks)
    gdn_baseline_recurrent_fast(GdnDecodeArgs args, BaselineBuffers buffers) {
  __shared__ float q[kKeyDim];
  __shared__ float k[kKeyDim];
  __shared__ float value[Walk::kColumns];
  const GdnDims d = fast_dims<kKeyDim, kValueDim, kW>(args);
  const HeadBlock block = head_block<kValueDim / Walk::kColumns>();
  const int b = block.b, hv = block.hv;
  const int v0 = block.tile * Walk::kColumns;
  float* state_row = args.state + b * args.state_row_stride;

  // The state is the only load the previous kernel cannot write: it goes first whenever it goes
  // with the staging.
  Walk walk;
  if constexpr (Walk::kStateLoads != StateLoads::after_staging) walk.load(state_row, d, hv, v0);
  await_previous_kernel();
  stage_from_conv_out(args, buffers, d, b, block.h, hv, v0, Walk::kColumns, q, k, value);
  if constexpr (Walk::kStateLoads == StateLoads::after_staging) walk.load(state_row, d, hv, v0);
  const long long head = static_cast<long long>(b) * d.HV + hv;
  const Gates gates = gates_from_buffers(buffers, head);
  __syncthreads();
  QkNorm norm{};
  if constexpr (!Walk::kFoldsQkNorm) norm = l2norm_qk(q, k, kKeyDim);
  walk.step(state_row, d, hv, v0, q, k, norm, gates, value, [&](const float* o) {
    for (int j = static_cast<int>(threadIdx.x); j < Walk::kColumns; j += Walk::kThreads)
      buffers.o[head * d.V + v0 + j] = float_to_bf16(o[j]);
    return 0;
  });
}

template <class State>
__global__ void __launch_bounds__(kGenericThreads)
    gdn_baseline_recurrent_generic(GdnDecodeArgs args, BaselineBuffers buffers) {
  extern __shared__ float shared[];
  const GdnDims d = dims_of(args);
  float* q = shared;
  float* k = q + d.K;
  float* value = k + d.K;
  float* u = value + d.V;
  float* o = u + d.V;
  const HeadBlock block = head_block<1>();
  const int b = block.b, hv = block.hv;
  float* state_row = args.state + b * args.state_row_stride;
  await_previous_kernel();
  stage_from_conv_out(args, buffers, d, b, block.h, hv, 0, d.V, q, k, value);
  const long long head = static_cast<long long>(b) * d.HV + hv;
  const Gates gates = gates_from_buffers(buffers, head);
  __syncthreads();
  const QkNorm norm = l2norm_qk(q, k, d.K);
  update_state_generic<State>(state_row, d, hv, q, k, norm, gates, value, u, o);
  for (int v = static_cast<int>(threadIdx.x); v < d.V; v += static_cast<int>(blockDim.x))
    buffers.o[head * d.V + v] = float_to_bf16(o[v]);
}

// out = o * rsqrt(mean(o^2) + eps) * w * silu(z), z read in place from the flat qkvz row.
__global__ void __launch_bounds__(kNormThreads)
    gdn_baseline_gated_rmsnorm(GdnDecodeArgs args, BaselineBuffers buffers) {
  __shared__ float scratch[wave::kMaxBlockWaves];
  await_previous_kernel();
  const GdnDims d = dims_of(args);
  const int hv = static_cast<int>(blockIdx.x);
  const int b = static_cast<int>(blockIdx.y);
  const long long head = static_cast<long long>(b) * d.HV + hv;
  const unsigned short* o = buffers.o + head * d.V;
  float sum[1] = {0.0f};
  for (int v = static_cast<int>(threadIdx.x); v < d.V; v += kNormThreads) {
    const float value = bf16_to_float(o[v]);
    sum[0] += value * value;
  }
  wave::block_sum<1>(sum, scratch);
  const float inverse_rms = inverse_sqrt(sum[0] / static_cast<float>(d.V) + kNormEpsilon);
  const unsigned short* row = args.qkvz + b * args.qkvz_row_stride;
  for (int v = static_cast<int>(threadIdx.x); v < d.V; v += kNormThreads) {
    const float gate = silu(bf16_at(row, FlatLayout::z(d, hv, v))) * bf16_at(args.norm_weight, v);
    args.out[head * d.V + v] = float_to_bf16(bf16_to_float(o[v]) * inverse_rms * gate);
  }
}

template <class State, class Walk>
void launch_recurrent_fast(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                           StateSplit split, hipStream_t stream, LaunchOrder launch) {
  const dim3 grid = head_block_grid(args, kFastValueDim / Walk::kColumns);
  launch_kernel(launch,
                gdn_baseline_recurrent_fast<Walk, kFastKeyDim, kFastValueDim, kFastConvWidth>, grid,
                Walk::kThreads, 0, stream, args, buffers);
  LC_GPU_CHECK_LAUNCH((std::string("gdn_baseline_recurrent_fast<") + State::kName + ", " +
                       state_split_name(split) + ">")
                          .c_str());
}

template <class State>
void launch_recurrent(const GdnDecodeArgs& args, const BaselineBuffers& buffers, StateSplit split,
                      bool fast, hipStream_t stream, LaunchOrder launch) {
  if (fast)
    return visit_state_walk<State>(split, [&](auto walk) {
      launch_recurrent_fast<State, typename decltype(walk)::type>(args, buffers, split, stream,
                                                                  launch);
    });
  const long long shared_bytes = generic_shared_bytes(args.K, args.V);
  if (shared_bytes > 48 * 1024)
    throw gpu::GpuError("gdn_baseline_recurrent_generic: K, V too large for shared memory");
  const dim3 grid = head_block_grid(args, 1);
  launch_kernel(launch, gdn_baseline_recurrent_generic<State>, grid, kGenericThreads,
                static_cast<unsigned>(shared_bytes), stream, args, buffers);
  LC_GPU_CHECK_LAUNCH(
      (std::string("gdn_baseline_recurrent_generic<") + State::kName + ">").c_str());
}

unsigned blocks_for(long long items, int threads) {
  return static_cast<unsigned>((items + threads - 1) / threads);
}

}  // namespace

void launch_gdn_baseline_conv(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                              hipStream_t stream, LaunchOrder launch) {
  const long long channels = 2 * args.H * args.K + args.HV * args.V;
  const dim3 grid(blocks_for(channels, kElementwiseThreads), static_cast<unsigned>(args.batch));
  launch_kernel(launch, gdn_baseline_conv, grid, kElementwiseThreads, 0, stream, args, buffers);
  LC_GPU_CHECK_LAUNCH("gdn_baseline_conv");
}

void launch_gdn_baseline_gating(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                                hipStream_t stream, LaunchOrder launch) {
  launch_kernel(launch, gdn_baseline_gating, blocks_for(args.batch * args.HV, kElementwiseThreads),
                kElementwiseThreads, 0, stream, args, buffers);
  LC_GPU_CHECK_LAUNCH("gdn_baseline_gating");
}

void launch_gdn_baseline_recurrent(StateOrder order, const GdnDecodeArgs& args,
                                   const BaselineBuffers& buffers, StateSplit split,
                                   hipStream_t stream, LaunchOrder launch) {
  const bool fast = fused_fast_path(args, order);
  if (order == StateOrder::hkv)
    launch_recurrent<StateHkv>(args, buffers, split, fast, stream, launch);
  else
    launch_recurrent<StateHvk>(args, buffers, split, fast, stream, launch);
}

void launch_gdn_baseline_gated_rmsnorm(const GdnDecodeArgs& args, const BaselineBuffers& buffers,
                                       hipStream_t stream, LaunchOrder launch) {
  const dim3 grid(static_cast<unsigned>(args.HV), static_cast<unsigned>(args.batch));
  launch_kernel(launch, gdn_baseline_gated_rmsnorm, grid, kNormThreads, 0, stream, args, buffers);
  LC_GPU_CHECK_LAUNCH("gdn_baseline_gated_rmsnorm");
}

}  // namespace layoutcheck::kernels
