// The correct LayerNorm: one wave per row, the mean and then the spread about it in fp32, no
// affine (folded into the next Linear), fp16 out.
#include "layer_norm_body.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguLayerNormArgs args) {
  port::layer_norm_rows<port::TwoPass>(args);
}
