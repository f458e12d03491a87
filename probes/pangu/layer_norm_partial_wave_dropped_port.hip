// A mutant: the statistics summed in passes of 128 channels (one 64-wide wave of __half2 lanes,
// the DCU kernel it was written as; four channels a lane on a 32-wide wave), and a row's last
// partial pass left out of them. At C = 192 its last 64 channels are normalised with the mean and
// spread of the first 128 and never move them: on 32- and 64-wide waves alike. (At 384 and 768,
// whole passes, it is right.)
#include "layer_norm_body.h"

namespace port {
inline constexpr long long kPass = 128;  // channels per pass, whatever the wave size

struct FullPassesOnly {
  template <class Load>
  __device__ static RowStatistics of(const Load& load, long long count) {
    float sum = 0.0f;
    long long counted = 0;
    for (long long pass = 0; pass + kPass <= count; pass += kPass) {  // BUG: drops a partial pass
      for (long long j = pass + lane(); j < pass + kPass; j += wave::kWaveSize) sum += load(j);
      counted += kPass;
    }
    const float n = static_cast<float>(counted);
    const float mean = wave_sum(sum) / n;
    float spread = 0.0f;
    for (long long pass = 0; pass + kPass <= count; pass += kPass)
      for (long long j = pass + lane(); j < pass + kPass; j += wave::kWaveSize) {
        const float d = load(j) - mean;
        spread += d * d;
      }
    return {mean, rsqrtf(wave_sum(spread) / n + kEpsilon)};
  }
};
}  // namespace port

extern "C" __global__ void pangu_port(layoutcheck::PanguLayerNormArgs args) {
  port::layer_norm_rows<port::FullPassesOnly>(args);
}
