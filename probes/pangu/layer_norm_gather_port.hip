// The correct LayerNorm fused with the window gather: one wave per slot normalises the grid token
// the map names straight into the slot (the normalised grid is never written whole), zeros
// where the map says -1.
#include "layer_norm_body.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  const long long width = args.channels;
  for (long long row = blockIdx.y; row < args.batch; row += gridDim.y)
    for (long long slot = port::first_row(); slot < args.slots; slot += port::row_step()) {
      unsigned short* to = args.to + row * args.to_row_stride + slot * width;
      const int token = args.map[slot];
      if (token < 0) {
        for (long long j = port::lane(); j < width; j += port::wave::kWaveSize) to[j] = 0;
        continue;
      }
      const unsigned short* from = args.from + row * args.from_row_stride + token * width;
      const auto load = [from](long long j) { return port::fp16_value(from[j]); };
      port::store_normalised(
          load, [to](long long j, float value) { to[j] = port::fp16_bits(value); }, width,
          port::TwoPass::of(load, width));
    }
}
