// A mutant: LayerNorm over the wrong width, a kernel built for 2C wired into a C-wide model. Each
// wave takes two rows as one row of 2C channels (rows 2t and 2t + 1), so every output of the pair
// depends on both rows' inputs.
#include "layer_norm_body.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguLayerNormArgs args) {
  const layoutcheck::PanguLayerNormArgs& a = args;
  for (long long pair = port::first_row(); 2 * pair < a.rows; pair += port::row_step()) {
    const long long rows = 2 * pair + 1 < a.rows ? 2 : 1;
    const long long width = rows * a.width;  // BUG: the statistics span both rows
    const auto load = [&a, pair](long long j) {
      return port::fp16_value(a.x[(2 * pair + j / a.width) * a.x_row_stride + j % a.width]);
    };
    port::store_normalised(
        load,
        [&a, pair](long long j, float value) {
          a.out[(2 * pair + j / a.width) * a.out_row_stride + j % a.width] = port::fp16_bits(value);
        },
        width, port::TwoPass::of(load, width));
  }
}
