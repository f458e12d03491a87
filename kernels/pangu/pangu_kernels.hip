// Pangu's LayerNorm family and window gather (pangu_kernels.h). One wave per row, kRowsPerBlock
// rows per block; each lane keeps its share of the row in registers (16-byte pieces), so the row is
// read once: the mean by a wave sum, then the spread about it by a second wave sum of the same
// registers (two passes over registers, not memory: a row of mean 1000 and spread 0.01 keeps its
// digits, which sum-of-squares would lose). Wave-size agnostic: a lane's share is its pieces
// lane, lane + kWaveSize, ...
#include <algorithm>
#include <stdexcept>
#include <string>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/fp16.h"
#if defined(LC_GPU_VENDOR_NVIDIA)
#include <cuda_fp16.h>
#else
#include <hip/hip_fp16.h>
#endif
#include "layoutcheck/platform/wave.h"
#include "pangu_kernels.h"

namespace layoutcheck::kernels {
namespace {

constexpr float kEpsilon = 1e-5f;  // torch.nn.LayerNorm's default
constexpr int kRowsPerBlock = 4;
constexpr int kGatherThreads = 256;

// The hardware's fp16 conversions (round to nearest even, as the project's own in fp16.h, which
// the CPU reference uses: the same bits for every finite value and infinity; a NaN stays a NaN).
__device__ inline float half_to_float(unsigned int bits) {
  return __half2float(__ushort_as_half(static_cast<unsigned short>(bits)));
}
__device__ inline unsigned int float_to_half(float value) {
  return __half_as_ushort(__float2half_rn(value));
}

// A row's 16-byte pieces (8 fp16) as one lane holds them: pieces lane, lane + kWaveSize, ...
template <int kWidth>
struct LaneShare {
  static constexpr int kPieces = kWidth / 8;
  static constexpr int kPerLane = (kPieces + wave::kWaveSize - 1) / wave::kWaveSize;
  float v[kPerLane][8];
  __device__ static bool holds(int i) { return wave::lane_id() + i * wave::kWaveSize < kPieces; }
};

template <int kWidth>
__device__ inline void load_row(const uint4* row, LaneShare<kWidth>& share) {
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i) {
    const uint4 bits = LaneShare<kWidth>::holds(i) ? row[wave::lane_id() + i * wave::kWaveSize]
                                                   : make_uint4(0u, 0u, 0u, 0u);
    const unsigned int words[4] = {bits.x, bits.y, bits.z, bits.w};
    for (int w = 0; w < 4; ++w) {
      share.v[i][2 * w] = half_to_float(words[w] & 0xffffu);
      share.v[i][2 * w + 1] = half_to_float(words[w] >> 16);
    }
  }
}

// Normalises the lane's share in place (pieces past the row count as nothing).
template <int kWidth>
__device__ inline void normalise(LaneShare<kWidth>& share) {
  float sum = 0.0f;
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    if (LaneShare<kWidth>::holds(i))
      for (int e = 0; e < 8; ++e) sum += share.v[i][e];
  const float mean = wave::group_sum<wave::kWaveSize>(sum) / static_cast<float>(kWidth);
  float spread = 0.0f;
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    if (LaneShare<kWidth>::holds(i))
      for (int e = 0; e < 8; ++e) {
        const float d = share.v[i][e] - mean;
        spread += d * d;
      }
  const float variance = wave::group_sum<wave::kWaveSize>(spread) / static_cast<float>(kWidth);
  const float inverse = rsqrtf(variance + kEpsilon);
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    for (int e = 0; e < 8; ++e) share.v[i][e] = (share.v[i][e] - mean) * inverse;
}

template <int kWidth>
__device__ inline void store_row(uint4* row, const LaneShare<kWidth>& share) {
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i) {
    if (!LaneShare<kWidth>::holds(i)) continue;
    unsigned int words[4];
    for (int w = 0; w < 4; ++w)
      words[w] = float_to_half(share.v[i][2 * w]) | (float_to_half(share.v[i][2 * w + 1]) << 16);
    row[wave::lane_id() + i * wave::kWaveSize] = make_uint4(words[0], words[1], words[2], words[3]);
  }
}

__device__ inline long long row_of_wave() {
  return static_cast<long long>(blockIdx.x) * kRowsPerBlock +
         static_cast<long long>(threadIdx.x) / wave::kWaveSize;
}

template <int kWidth>
__global__ void __launch_bounds__(kRowsPerBlock* wave::kWaveSize)
    pangu_layer_norm_kernel(const uint4* x, uint4* out, long long rows) {
  const long long r = row_of_wave();
  if (r >= rows) return;  // a whole wave leaves together: the sums stay within live waves
  LaneShare<kWidth> share;
  load_row<kWidth>(x + r * (kWidth / 8), share);
  normalise<kWidth>(share);
  store_row<kWidth>(out + r * (kWidth / 8), share);
}

template <int kWidth>
__global__ void __launch_bounds__(kRowsPerBlock* wave::kWaveSize)
    pangu_add_layer_norm_kernel(const uint4* residual, const uint4* branch, uint4* residual_out,
                                uint4* out, long long rows) {
  const long long r = row_of_wave();
  if (r >= rows) return;
  LaneShare<kWidth> a, b;
  load_row<kWidth>(residual + r * (kWidth / 8), a);
  load_row<kWidth>(branch + r * (kWidth / 8), b);
  // The framework's rounding point: the sum rounded to fp16, and the statistics of that.
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    for (int e = 0; e < 8; ++e) a.v[i][e] = half_to_float(float_to_half(a.v[i][e] + b.v[i][e]));
  store_row<kWidth>(residual_out + r * (kWidth / 8), a);
  normalise<kWidth>(a);
  store_row<kWidth>(out + r * (kWidth / 8), a);
}

template <int kWidth>
__global__ void __launch_bounds__(kRowsPerBlock* wave::kWaveSize)
    pangu_layer_norm_gather_kernel(const uint4* x, const int* map, uint4* out, long long slots) {
  const long long s = row_of_wave();
  if (s >= slots) return;
  const int token = map[s];
  uint4* to = out + s * (kWidth / 8);
  if (token < 0) {
    for (int piece = wave::lane_id(); piece < kWidth / 8; piece += wave::kWaveSize)
      to[piece] = make_uint4(0u, 0u, 0u, 0u);
    return;
  }
  LaneShare<kWidth> share;
  load_row<kWidth>(x + static_cast<long long>(token) * (kWidth / 8), share);
  normalise<kWidth>(share);
  store_row<kWidth>(to, share);
}

// Two 16-byte pieces per thread, `stride` apart: both pieces' map and token loads are in flight
// together (one piece per thread leaves the memory system waiting on the map load before the
// copy). Each copies its piece from the token the map names, or writes zeros.
__global__ void __launch_bounds__(kGatherThreads)
    pangu_gather_kernel(const uint4* x, const int* map, uint4* out, unsigned int total,
                        unsigned int pieces_per_token) {
  // 32-bit index arithmetic (the host checks the pieces fit): a 64-bit division per piece costs
  // more than the copy.
  const unsigned int stride = gridDim.x * blockDim.x;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += 2 * stride) {
    const unsigned int j = i + stride;
    const bool second = j < total;
    const unsigned int slot_i = i / pieces_per_token, slot_j = j / pieces_per_token;
    const int token_i = map[slot_i];
    const int token_j = second ? map[slot_j] : -1;
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
    const uint4 a =
        token_i < 0 ? zero
                    : x[static_cast<unsigned long long>(token_i) * pieces_per_token + i -
                        slot_i * pieces_per_token];
    const uint4 b =
        token_j < 0 ? zero
                    : x[static_cast<unsigned long long>(token_j) * pieces_per_token + j -
                        slot_j * pieces_per_token];
    out[i] = a;
    if (second) out[j] = b;
  }
}

unsigned blocks_for(std::int64_t rows) {
  return static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
}

unsigned row_threads() {
  return static_cast<unsigned>(kRowsPerBlock * wave::kWaveSize);
}

// Calls launch.template operator()<W>() for the supported width W.
template <class Launch>
void with_width(std::int64_t width, Launch&& launch) {
  require_pangu_width(width);
  if (width == 192) launch.template operator()<192>();
  if (width == 384) launch.template operator()<384>();
  if (width == 768) launch.template operator()<768>();
}

}  // namespace

bool pangu_width_supported(std::int64_t width) {
  return width == 192 || width == 384 || width == 768;
}

void require_pangu_width(std::int64_t width) {
  if (!pangu_width_supported(width))
    throw std::invalid_argument(
        "Pangu LayerNorm kernels are built for widths 192, 384 and 768 "
        "only, not " +
        std::to_string(width) + " (no generic fallback)");
}

void pangu_layer_norm(const std::uint16_t* x, std::uint16_t* out, std::int64_t rows,
                      std::int64_t width, hipStream_t stream) {
  with_width(width, [&]<int W>() {
    if (rows <= 0) return;
    pangu_layer_norm_kernel<W><<<blocks_for(rows), row_threads(), 0, stream>>>(
        reinterpret_cast<const uint4*>(x), reinterpret_cast<uint4*>(out), rows);
    LC_GPU_CHECK_LAUNCH(("pangu_layer_norm<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_add_layer_norm(const std::uint16_t* residual, const std::uint16_t* branch,
                          std::uint16_t* residual_out, std::uint16_t* out, std::int64_t rows,
                          std::int64_t width, hipStream_t stream) {
  with_width(width, [&]<int W>() {
    if (rows <= 0) return;
    pangu_add_layer_norm_kernel<W><<<blocks_for(rows), row_threads(), 0, stream>>>(
        reinterpret_cast<const uint4*>(residual),
        reinterpret_cast<const uint4*>(branch),
        reinterpret_cast<uint4*>(residual_out), reinterpret_cast<uint4*>(out), rows);
    LC_GPU_CHECK_LAUNCH(("pangu_add_layer_norm<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_layer_norm_gather(const std::uint16_t* x, const std::int32_t* map, std::uint16_t* out,
                             std::int64_t slots, std::int64_t width, hipStream_t stream) {
  with_width(width, [&]<int W>() {
    if (slots <= 0) return;
    pangu_layer_norm_gather_kernel<W><<<blocks_for(slots), row_threads(), 0, stream>>>(
        reinterpret_cast<const uint4*>(x), map, reinterpret_cast<uint4*>(out), slots);
    LC_GPU_CHECK_LAUNCH(("pangu_layer_norm_gather<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_gather(const std::uint16_t* x, const std::int32_t* map, std::uint16_t* out,
                  std::int64_t slots, std::int64_t width, hipStream_t stream) {
  if (width <= 0 || width % 8 != 0)
    throw std::invalid_argument("pangu_gather moves tokens in 16-byte pieces: width " +
                                std::to_string(width) + " is not a multiple of 8");
  if (slots <= 0) return;
  const long long pieces = width / 8;
  const long long total = slots * pieces;
  if (total > 0x7fffffffLL)
    throw std::invalid_argument("pangu_gather: " + std::to_string(total) +
                                " 16-byte pieces do not fit the kernel's 32-bit indices");
  // Half a thread per piece: each thread copies two.
  const unsigned blocks = static_cast<unsigned>(
      std::min<long long>((total + 2 * kGatherThreads - 1) / (2 * kGatherThreads), 1 << 16));
  pangu_gather_kernel<<<blocks, kGatherThreads, 0, stream>>>(
      reinterpret_cast<const uint4*>(x), map, reinterpret_cast<uint4*>(out),
      static_cast<unsigned int>(total), static_cast<unsigned int>(pieces));
  LC_GPU_CHECK_LAUNCH("pangu_gather");
}

}  // namespace layoutcheck::kernels
