// A mutant: the statistics in one fp32 pass, a sum and a sum of squares, variance
// E[x^2] - E[x]^2. Right on random rows; on a row of mean 1000 and spread 0.25 the two terms
// are ~10^6 apart from each other by 0.06 and fp32 keeps none of it (the large-mean probe).
#include "layer_norm_body.h"

namespace port {
struct OnePass {
  template <class Load>
  __device__ static RowStatistics of(const Load& load, long long count) {
    float sum = 0.0f, squares = 0.0f;
    for (long long j = lane(); j < count; j += wave::kWaveSize) {
      const float value = load(j);
      sum += value;
      squares += value * value;
    }
    const float n = static_cast<float>(count);
    const float mean = wave_sum(sum) / n;
    const float variance = wave_sum(squares) / n - mean * mean;  // BUG: cancels on a large mean
    return {mean, rsqrtf(variance + kEpsilon)};
  }
};
}  // namespace port

extern "C" __global__ void pangu_port(layoutcheck::PanguLayerNormArgs args) {
  port::layer_norm_rows<port::OnePass>(args);
}
