// The shared block parts (pangu_block_kernels.h). Attention: one block per (window, head); the
// window's keys and values staged in shared memory as fp32, one thread per query with a running
// (online) softmax, so no score matrix is kept. Simple on purpose: it is the same in both paths.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/fp16.h"
#include "pangu_block_kernels.h"

namespace layoutcheck::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kHeadDim = 32;
// Keys and values of a window within the 48 KiB of static shared memory every GPU gives.
constexpr int kMaxWindowTokens = 160;

__global__ void __launch_bounds__(kThreads)
    bias_activation_kernel(unsigned short* out, const unsigned short* bias, long long rows,
                           long long width, bool gelu) {
  const long long total = rows * width;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    float v = fp16_to_float(out[i]) + fp16_to_float(bias[i % width]);
    if (gelu) v = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
    out[i] = float_to_fp16(v);
  }
}

__global__ void window_attention_kernel(const unsigned short* qkv, unsigned short* out,
                                        int window_tokens, int heads) {
  __shared__ float keys[kMaxWindowTokens][kHeadDim];
  __shared__ float values[kMaxWindowTokens][kHeadDim];
  const long long window = blockIdx.x;
  const int head = static_cast<int>(blockIdx.y);
  const long long channels = static_cast<long long>(heads) * kHeadDim;
  const unsigned short* base = qkv + window * window_tokens * 3 * channels;
  for (int i = static_cast<int>(threadIdx.x); i < window_tokens * kHeadDim;
       i += static_cast<int>(blockDim.x)) {
    const int t = i / kHeadDim, d = i % kHeadDim;
    const unsigned short* token = base + t * 3 * channels + head * kHeadDim + d;
    keys[t][d] = fp16_to_float(token[channels]);
    values[t][d] = fp16_to_float(token[2 * channels]);
  }
  __syncthreads();
  const float scale = rsqrtf(static_cast<float>(kHeadDim));
  for (int t = static_cast<int>(threadIdx.x); t < window_tokens;
       t += static_cast<int>(blockDim.x)) {
    float q[kHeadDim], acc[kHeadDim];
    const unsigned short* query = base + t * 3 * channels + head * kHeadDim;
    for (int d = 0; d < kHeadDim; ++d) {
      q[d] = fp16_to_float(query[d]) * scale;
      acc[d] = 0.0f;
    }
    float running_max = -INFINITY, total = 0.0f;
    for (int j = 0; j < window_tokens; ++j) {
      float score = 0.0f;
      for (int d = 0; d < kHeadDim; ++d) score += q[d] * keys[j][d];
      const float next_max = fmaxf(running_max, score);
      const float rescale = __expf(running_max - next_max), weight = __expf(score - next_max);
      total = total * rescale + weight;
      for (int d = 0; d < kHeadDim; ++d) acc[d] = acc[d] * rescale + weight * values[j][d];
      running_max = next_max;
    }
    unsigned short* to = out + (window * window_tokens + t) * channels + head * kHeadDim;
    for (int d = 0; d < kHeadDim; ++d) to[d] = float_to_fp16(acc[d] / total);
  }
}

}  // namespace

void bias_activation(std::uint16_t* out, const std::uint16_t* bias, std::int64_t rows,
                     std::int64_t width, bool gelu, hipStream_t stream) {
  const long long total = rows * width;
  if (total <= 0) return;
  const auto blocks =
      static_cast<unsigned>(std::min<long long>((total + kThreads - 1) / kThreads, 1 << 20));
  bias_activation_kernel<<<blocks, kThreads, 0, stream>>>(out, bias, rows, width, gelu);
  LC_GPU_CHECK_LAUNCH("bias_activation");
}

void window_attention(const std::uint16_t* qkv, std::uint16_t* out, std::int64_t slots,
                      std::int64_t window_tokens, std::int64_t heads, std::int64_t head_dim,
                      hipStream_t stream) {
  if (window_tokens <= 0 || window_tokens > kMaxWindowTokens || slots % window_tokens != 0)
    throw std::invalid_argument("window_attention: " + std::to_string(slots) +
                                " slots are not whole windows of " +
                                std::to_string(window_tokens) + " (at most " +
                                std::to_string(kMaxWindowTokens) + " tokens a window)");
  if (head_dim != kHeadDim)
    throw std::invalid_argument("window_attention: head_dim " + std::to_string(head_dim) +
                                " (built for 32, Pangu's at every level)");
  if (heads <= 0 || heads > 65535)
    throw std::invalid_argument("window_attention: heads must be 1 to 65535");
  if (slots == 0) return;
  const dim3 grid(static_cast<unsigned>(slots / window_tokens), static_cast<unsigned>(heads));
  // One thread per query, rounded up to whole 32-lane groups (any wave size divides the work).
  const auto threads = static_cast<unsigned>((window_tokens + 31) / 32 * 32);
  const auto q = reinterpret_cast<const unsigned short*>(qkv);
  const auto o = reinterpret_cast<unsigned short*>(out);
  const auto tokens = static_cast<int>(window_tokens), h = static_cast<int>(heads);
  window_attention_kernel<<<grid, threads, 0, stream>>>(q, o, tokens, h);
  LC_GPU_CHECK_LAUNCH("window_attention");
}

}  // namespace layoutcheck::kernels
