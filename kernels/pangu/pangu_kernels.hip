// Pangu's LayerNorm family and window gather (pangu_kernels.h). One wave per row, kRowsPerBlock
// rows per block; each lane keeps its share of the row in registers (fp16 pairs), so the row is
// read once: the mean by a wave sum, then the spread about it by a second wave sum of the same
// registers (two passes over registers, not memory: a row of mean 1000 and spread 0.01 keeps its
// digits, which sum-of-squares would lose). Wave-size agnostic: a lane's share is its pairs
// lane, lane + kWaveSize, ...
#include <algorithm>
#include <stdexcept>
#include <string>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/fp16.h"
#include "layoutcheck/platform/wave.h"
#include "pangu_kernels.h"

namespace layoutcheck::kernels {
namespace {

constexpr float kEpsilon = 1e-5f;  // torch.nn.LayerNorm's default
constexpr int kRowsPerBlock = 4;
constexpr int kGatherThreads = 256;

// A row's fp16 pairs as one lane holds them.
template <int kWidth>
struct LaneShare {
  static constexpr int kPairs = kWidth / 2;
  static constexpr int kPerLane = (kPairs + wave::kWaveSize - 1) / wave::kWaveSize;
  float first[kPerLane], second[kPerLane];
};

template <int kWidth>
__device__ inline void load_row(const unsigned int* row, LaneShare<kWidth>& share) {
  const int lane = wave::lane_id();
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i) {
    const int pair = lane + i * wave::kWaveSize;
    const unsigned int bits = pair < LaneShare<kWidth>::kPairs ? row[pair] : 0u;
    share.first[i] = fp16_to_float(static_cast<fp16_bits>(bits & 0xffffu));
    share.second[i] = fp16_to_float(static_cast<fp16_bits>(bits >> 16));
  }
}

// Normalises the lane's share in place (padding pairs past the row count as nothing).
template <int kWidth>
__device__ inline void normalise(LaneShare<kWidth>& share) {
  const int lane = wave::lane_id();
  float sum = 0.0f;
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    if (lane + i * wave::kWaveSize < LaneShare<kWidth>::kPairs)
      sum += share.first[i] + share.second[i];
  const float mean = wave::group_sum<wave::kWaveSize>(sum) / static_cast<float>(kWidth);
  float spread = 0.0f;
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i)
    if (lane + i * wave::kWaveSize < LaneShare<kWidth>::kPairs) {
      const float a = share.first[i] - mean, b = share.second[i] - mean;
      spread += a * a + b * b;
    }
  const float variance = wave::group_sum<wave::kWaveSize>(spread) / static_cast<float>(kWidth);
  const float inverse = rsqrtf(variance + kEpsilon);
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i) {
    share.first[i] = (share.first[i] - mean) * inverse;
    share.second[i] = (share.second[i] - mean) * inverse;
  }
}

template <int kWidth>
__device__ inline void store_row(unsigned int* row, const LaneShare<kWidth>& share) {
  const int lane = wave::lane_id();
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i) {
    const int pair = lane + i * wave::kWaveSize;
    if (pair < LaneShare<kWidth>::kPairs)
      row[pair] = static_cast<unsigned int>(float_to_fp16(share.first[i])) |
                  (static_cast<unsigned int>(float_to_fp16(share.second[i])) << 16);
  }
}

__device__ inline long long row_of_wave() {
  return static_cast<long long>(blockIdx.x) * kRowsPerBlock +
         static_cast<long long>(threadIdx.x) / wave::kWaveSize;
}

template <int kWidth>
__global__ void __launch_bounds__(kRowsPerBlock* wave::kWaveSize)
    pangu_layer_norm_kernel(const unsigned int* x, unsigned int* out, long long rows) {
  const long long r = row_of_wave();
  if (r >= rows) return;  // a whole wave leaves together: the sums stay within live waves
  LaneShare<kWidth> share;
  load_row<kWidth>(x + r * (kWidth / 2), share);
  normalise<kWidth>(share);
  store_row<kWidth>(out + r * (kWidth / 2), share);
}

template <int kWidth>
__global__ void __launch_bounds__(kRowsPerBlock* wave::kWaveSize)
    pangu_add_layer_norm_kernel(const unsigned int* residual, const unsigned int* branch,
                                unsigned int* residual_out, unsigned int* out, long long rows) {
  const long long r = row_of_wave();
  if (r >= rows) return;
  LaneShare<kWidth> a, b;
  load_row<kWidth>(residual + r * (kWidth / 2), a);
  load_row<kWidth>(branch + r * (kWidth / 2), b);
  // The framework's rounding point: the sum rounded to fp16, and the statistics of that.
  for (int i = 0; i < LaneShare<kWidth>::kPerLane; ++i) {
    a.first[i] = fp16_to_float(float_to_fp16(a.first[i] + b.first[i]));
    a.second[i] = fp16_to_float(float_to_fp16(a.second[i] + b.second[i]));
  }
  store_row<kWidth>(residual_out + r * (kWidth / 2), a);
  normalise<kWidth>(a);
  store_row<kWidth>(out + r * (kWidth / 2), a);
}

template <int kWidth>
__global__ void __launch_bounds__(kRowsPerBlock* wave::kWaveSize)
    pangu_layer_norm_gather_kernel(const unsigned int* x, const int* map, unsigned int* out,
                                   long long slots) {
  const long long s = row_of_wave();
  if (s >= slots) return;
  const int token = map[s];
  unsigned int* to = out + s * (kWidth / 2);
  if (token < 0) {
    for (int pair = wave::lane_id(); pair < kWidth / 2; pair += wave::kWaveSize) to[pair] = 0u;
    return;
  }
  LaneShare<kWidth> share;
  load_row<kWidth>(x + static_cast<long long>(token) * (kWidth / 2), share);
  normalise<kWidth>(share);
  store_row<kWidth>(to, share);
}

// One thread per 16-byte piece of a slot: copies it from the token the map names, or zeros.
__global__ void __launch_bounds__(kGatherThreads)
    pangu_gather_kernel(const uint4* x, const int* map, uint4* out, long long slots,
                        long long pieces_per_token) {
  const long long total = slots * pieces_per_token;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long slot = i / pieces_per_token, piece = i % pieces_per_token;
    const int token = map[slot];
    out[i] = token < 0 ? make_uint4(0u, 0u, 0u, 0u)
                       : x[static_cast<long long>(token) * pieces_per_token + piece];
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
        reinterpret_cast<const unsigned int*>(x), reinterpret_cast<unsigned int*>(out), rows);
    LC_GPU_CHECK_LAUNCH(("pangu_layer_norm<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_add_layer_norm(const std::uint16_t* residual, const std::uint16_t* branch,
                          std::uint16_t* residual_out, std::uint16_t* out, std::int64_t rows,
                          std::int64_t width, hipStream_t stream) {
  with_width(width, [&]<int W>() {
    if (rows <= 0) return;
    pangu_add_layer_norm_kernel<W><<<blocks_for(rows), row_threads(), 0, stream>>>(
        reinterpret_cast<const unsigned int*>(residual),
        reinterpret_cast<const unsigned int*>(branch),
        reinterpret_cast<unsigned int*>(residual_out), reinterpret_cast<unsigned int*>(out), rows);
    LC_GPU_CHECK_LAUNCH(("pangu_add_layer_norm<" + std::to_string(W) + ">").c_str());
  });
}

void pangu_layer_norm_gather(const std::uint16_t* x, const std::int32_t* map, std::uint16_t* out,
                             std::int64_t slots, std::int64_t width, hipStream_t stream) {
  with_width(width, [&]<int W>() {
    if (slots <= 0) return;
    pangu_layer_norm_gather_kernel<W><<<blocks_for(slots), row_threads(), 0, stream>>>(
        reinterpret_cast<const unsigned int*>(x), map, reinterpret_cast<unsigned int*>(out), slots);
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
  const unsigned blocks = static_cast<unsigned>(
      std::min<long long>((total + kGatherThreads - 1) / kGatherThreads, 1 << 16));
  pangu_gather_kernel<<<blocks, kGatherThreads, 0, stream>>>(
      reinterpret_cast<const uint4*>(x), map, reinterpret_cast<uint4*>(out), slots, pieces);
  LC_GPU_CHECK_LAUNCH("pangu_gather");
}

}  // namespace layoutcheck::kernels
