// The correct residual add + LayerNorm: residual_out = fp16(residual + branch), and the
// statistics of that rounded value, as the framework's separate fp16 add leaves it.
#include "layer_norm_body.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguAddLayerNormArgs args) {
  port::add_layer_norm_rows<port::RoundedSum>(args);
}
