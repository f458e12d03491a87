// The generic path (pangu_generic_kernels.h), written as a framework's general kernels are: any
// width, one element per thread for the data movement, one block per row for LayerNorm with its
// two reductions through shared memory.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/fp16.h"
#include "pangu_generic_kernels.h"

namespace layoutcheck::kernels {
namespace {

constexpr int kRowThreads = 256;
constexpr int kThreads = 256;
constexpr float kEpsilon = 1e-5f;

__device__ inline float block_sum(float value, float* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (int half = kRowThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
    __syncthreads();
  }
  const float total = scratch[0];
  __syncthreads();
  return total;
}

__global__ void __launch_bounds__(kRowThreads)
    generic_layer_norm_kernel(const unsigned short* x, unsigned short* out, long long width) {
  __shared__ float scratch[kRowThreads];
  const unsigned short* row = x + static_cast<long long>(blockIdx.x) * width;
  unsigned short* to = out + static_cast<long long>(blockIdx.x) * width;
  float sum = 0.0f;
  for (long long c = threadIdx.x; c < width; c += kRowThreads) sum += fp16_to_float(row[c]);
  const float mean = block_sum(sum, scratch) / static_cast<float>(width);
  float spread = 0.0f;
  for (long long c = threadIdx.x; c < width; c += kRowThreads) {
    const float d = fp16_to_float(row[c]) - mean;
    spread += d * d;
  }
  const float inverse = rsqrtf(block_sum(spread, scratch) / static_cast<float>(width) + kEpsilon);
  for (long long c = threadIdx.x; c < width; c += kRowThreads)
    to[c] = float_to_fp16((fp16_to_float(row[c]) - mean) * inverse);
}

__global__ void __launch_bounds__(kThreads)
    generic_add_kernel(const unsigned short* a, const unsigned short* b, unsigned short* out,
                       long long elements) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < elements;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = float_to_fp16(fp16_to_float(a[i]) + fp16_to_float(b[i]));
}

struct Axes {
  long long z, lat, lon, width;
};

__global__ void __launch_bounds__(kThreads)
    generic_pad_kernel(const unsigned short* x, Axes grid, unsigned short* out, Axes padded,
                       long long before_z, long long before_lat, long long before_lon) {
  const long long total = padded.z * padded.lat * padded.lon * padded.width;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long c = i % padded.width, token = i / padded.width;
    const long long z = token / (padded.lat * padded.lon) - before_z;
    const long long lat = token / padded.lon % padded.lat - before_lat;
    const long long lon = token % padded.lon - before_lon;
    const bool inside =
        z >= 0 && z < grid.z && lat >= 0 && lat < grid.lat && lon >= 0 && lon < grid.lon;
    out[i] = inside ? x[((z * grid.lat + lat) * grid.lon + lon) * grid.width + c] : 0;
  }
}

__global__ void __launch_bounds__(kThreads)
    generic_crop_kernel(const unsigned short* x, Axes padded, unsigned short* out, Axes grid,
                        long long before_z, long long before_lat, long long before_lon) {
  const long long total = grid.z * grid.lat * grid.lon * grid.width;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long c = i % grid.width, token = i / grid.width;
    const long long z = token / (grid.lat * grid.lon) + before_z;
    const long long lat = token / grid.lon % grid.lat + before_lat;
    const long long lon = token % grid.lon + before_lon;
    out[i] = x[((z * padded.lat + lat) * padded.lon + lon) * padded.width + c];
  }
}

__global__ void __launch_bounds__(kThreads)
    generic_roll_kernel(const unsigned short* in, unsigned short* out, Axes grid,
                        long long shift_z, long long shift_lat, long long shift_lon) {
  const long long total = grid.z * grid.lat * grid.lon * grid.width;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long c = i % grid.width, token = i / grid.width;
    const long long z = (token / (grid.lat * grid.lon) + shift_z) % grid.z;
    const long long lat = (token / grid.lon % grid.lat + shift_lat) % grid.lat;
    const long long lon = (token % grid.lon + shift_lon) % grid.lon;
    out[i] = in[((z * grid.lat + lat) * grid.lon + lon) * grid.width + c];
  }
}

__global__ void __launch_bounds__(kThreads)
    generic_index_select_kernel(const unsigned short* in, const long long* index,
                                unsigned short* out, long long slots, long long width) {
  const long long total = slots * width;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = in[index[i / width] * width + i % width];
}

unsigned blocks_for(long long elements) {
  return static_cast<unsigned>(std::min<long long>((elements + kThreads - 1) / kThreads, 1 << 20));
}

Axes axes_of(GridShape shape) { return {shape.z, shape.lat, shape.lon, shape.width}; }

void require_positive(std::int64_t value, const char* what) {
  if (value <= 0) throw std::invalid_argument(std::string(what) + " must be positive");
}

}  // namespace

void generic_layer_norm(const std::uint16_t* x, std::uint16_t* out, std::int64_t rows,
                        std::int64_t width, hipStream_t stream) {
  require_positive(width, "generic_layer_norm: the width");
  if (rows <= 0) return;
  if (rows > 0x7fffffff) throw std::invalid_argument("generic_layer_norm: more than 2^31-1 rows");
  generic_layer_norm_kernel<<<static_cast<unsigned>(rows), kRowThreads, 0, stream>>>(x, out,
                                                                                    width);
  LC_GPU_CHECK_LAUNCH("generic_layer_norm");
}

void generic_add(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* out,
                 std::int64_t elements, hipStream_t stream) {
  if (elements <= 0) return;
  generic_add_kernel<<<blocks_for(elements), kThreads, 0, stream>>>(a, b, out, elements);
  LC_GPU_CHECK_LAUNCH("generic_add");
}

void generic_pad(const std::uint16_t* x, GridShape grid, std::uint16_t* out, GridShape padded,
                 const std::int64_t before[3], hipStream_t stream) {
  const long long total = padded.z * padded.lat * padded.lon * padded.width;
  if (total <= 0) return;
  generic_pad_kernel<<<blocks_for(total), kThreads, 0, stream>>>(
      x, axes_of(grid), out, axes_of(padded), before[0], before[1], before[2]);
  LC_GPU_CHECK_LAUNCH("generic_pad");
}

void generic_crop(const std::uint16_t* x, GridShape padded, std::uint16_t* out, GridShape grid,
                  const std::int64_t before[3], hipStream_t stream) {
  const long long total = grid.z * grid.lat * grid.lon * grid.width;
  if (total <= 0) return;
  generic_crop_kernel<<<blocks_for(total), kThreads, 0, stream>>>(
      x, axes_of(padded), out, axes_of(grid), before[0], before[1], before[2]);
  LC_GPU_CHECK_LAUNCH("generic_crop");
}

void generic_roll(const std::uint16_t* in, std::uint16_t* out, GridShape grid,
                  const std::int64_t shift[3], hipStream_t stream) {
  const long long total = grid.z * grid.lat * grid.lon * grid.width;
  if (total <= 0) return;
  // Shifts taken into [0, extent) so the kernel's modulo sees no negative.
  const auto wrap = [](std::int64_t s, std::int64_t n) { return ((s % n) + n) % n; };
  generic_roll_kernel<<<blocks_for(total), kThreads, 0, stream>>>(
      in, out, axes_of(grid), wrap(shift[0], grid.z), wrap(shift[1], grid.lat),
      wrap(shift[2], grid.lon));
  LC_GPU_CHECK_LAUNCH("generic_roll");
}

void generic_index_select(const std::uint16_t* in, const std::int64_t* index, std::uint16_t* out,
                          std::int64_t slots, std::int64_t width, hipStream_t stream) {
  const long long total = slots * width;
  if (total <= 0) return;
  generic_index_select_kernel<<<blocks_for(total), kThreads, 0, stream>>>(
      in, reinterpret_cast<const long long*>(index), out, slots, width);
  LC_GPU_CHECK_LAUNCH("generic_index_select");
}

}  // namespace layoutcheck::kernels
