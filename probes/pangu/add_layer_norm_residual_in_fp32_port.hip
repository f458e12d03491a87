// A mutant: writes residual_out rounded, but normalises the fp32 sum it never rounded, so the
// fused kernel's statistics are not the framework's (the rounding-point probe; random inputs hide
// it).
#include "layer_norm_body.h"

namespace port {
struct UnroundedSum {
  __device__ static float of(float residual, float branch) {
    return residual + branch;  // BUG: the LayerNorm must read fp16(residual + branch)
  }
};
}  // namespace port

extern "C" __global__ void pangu_port(layoutcheck::PanguAddLayerNormArgs args) {
  port::add_layer_norm_rows<port::UnroundedSum>(args);
}
