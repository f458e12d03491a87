// A GPT-J-style kernel (interleaved pairs: 2p, 2p + 1) wired into a half-split model: it rotates
// the wrong pairs. Its manifest claims the interleaved layout, so the probe must misread exactly
// what the static diff predicts.
#include "rope_port_body.h"

extern "C" __global__ void rope_port(layoutcheck::RopeApplyArgs args) {
  port::rope_apply<port::Interleaved>(args);
}
