// Shared by the LayerNorm ports in this folder (ABIs pangu_layer_norm_v1, pangu_add_layer_norm_v1,
// and pangu_window_gather_v1 for LayerNorm fused with the gather; kernels/pangu/pangu_abi.h): one
// wave per row, several rows per block. @pre blockDim.x is the wave size (the manifests launch
// [wave_size, rows per block]), so threadIdx.y names a whole wave and a row's lanes leave a loop
// together. The lanes stride over a row's channels by the wave size: any width, either wave size.
// fp16 through the project's own conversions (the CPU reference's bits), statistics in fp32 by
// wave sums. A Statistics policy gives a row's mean and inverse spread from load(j), channel j of
// the row as a float; TwoPass is the correct one, the mutants here bring their own.
#pragma once

#include "layoutcheck/platform/fp16.h"
#include "layoutcheck/platform/gpu_runtime.h"  // the vendor, then wave.h
#include "pangu_abi.h"

namespace port {

namespace wave = layoutcheck::wave;

inline constexpr float kEpsilon = 1e-5f;  // torch.nn.LayerNorm's default

struct RowStatistics {
  float mean, inverse;
};

__device__ inline long long lane() {
  return threadIdx.x;
}

// Every lane's partial summed over the wave, in every lane.
__device__ inline float wave_sum(float partial) {
  return wave::group_sum<wave::kWaveSize>(partial);
}

// The mean, then the spread about it: a row of mean 1000 and spread 0.25 keeps its digits.
struct TwoPass {
  template <class Load>
  __device__ static RowStatistics of(const Load& load, long long count) {
    float sum = 0.0f;
    for (long long j = lane(); j < count; j += wave::kWaveSize) sum += load(j);
    const float mean = wave_sum(sum) / static_cast<float>(count);
    float spread = 0.0f;
    for (long long j = lane(); j < count; j += wave::kWaveSize) {
      const float d = load(j) - mean;
      spread += d * d;
    }
    return {mean, rsqrtf(wave_sum(spread) / static_cast<float>(count) + kEpsilon)};
  }
};

// store(j, (load(j) - mean) * inverse) for every j < count.
template <class Load, class Store>
__device__ inline void store_normalised(const Load& load, const Store& store, long long count,
                                        const RowStatistics& statistics) {
  for (long long j = lane(); j < count; j += wave::kWaveSize)
    store(j, (load(j) - statistics.mean) * statistics.inverse);
}

// The rows (or slots) this wave takes: its own first, then a grid's worth further each time.
__device__ inline long long first_row() {
  return static_cast<long long>(blockIdx.x) * blockDim.y + threadIdx.y;
}
__device__ inline long long row_step() {
  return static_cast<long long>(gridDim.x) * blockDim.y;
}

__device__ inline float fp16_value(unsigned short bits) {
  return layoutcheck::fp16_to_float(bits);
}
__device__ inline unsigned short fp16_bits(float value) {
  return layoutcheck::float_to_fp16(value);
}

// Every row of a pangu_layer_norm_v1 call.
template <class Statistics>
__device__ inline void layer_norm_rows(const layoutcheck::PanguLayerNormArgs& args) {
  for (long long row = first_row(); row < args.rows; row += row_step()) {
    const unsigned short* x = args.x + row * args.x_row_stride;
    unsigned short* out = args.out + row * args.out_row_stride;
    const auto load = [x](long long j) { return fp16_value(x[j]); };
    store_normalised(
        load, [out](long long j, float value) { out[j] = fp16_bits(value); }, args.width,
        Statistics::of(load, args.width));
  }
}

// The framework's rounding point: the residual stream is fp16, so the sum the statistics see is
// the rounded one.
struct RoundedSum {
  __device__ static float of(float residual, float branch) {
    return fp16_value(fp16_bits(residual + branch));
  }
};

// Every row of a pangu_add_layer_norm_v1 call; Sum::of gives the value the LayerNorm reads. The
// residual written is always fp16(residual + branch).
template <class Sum>
__device__ inline void add_layer_norm_rows(const layoutcheck::PanguAddLayerNormArgs& args) {
  for (long long row = first_row(); row < args.rows; row += row_step()) {
    const unsigned short* residual = args.residual + row * args.residual_row_stride;
    const unsigned short* branch = args.branch + row * args.branch_row_stride;
    unsigned short* residual_out = args.residual_out + row * args.residual_out_row_stride;
    unsigned short* out = args.out + row * args.out_row_stride;
    for (long long j = lane(); j < args.width; j += wave::kWaveSize)
      residual_out[j] = fp16_bits(fp16_value(residual[j]) + fp16_value(branch[j]));
    const auto load = [residual, branch](long long j) {
      return Sum::of(fp16_value(residual[j]), fp16_value(branch[j]));
    };
    store_normalised(
        load, [out](long long j, float value) { out[j] = fp16_bits(value); }, args.width,
        TwoPass::of(load, args.width));
  }
}

}  // namespace port
