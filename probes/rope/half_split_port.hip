// The correct port: reads x and writes out in half-split pairs, as the model produces them.
#include "rope_port_body.h"

extern "C" __global__ void rope_port(layoutcheck::RopeApplyArgs args) {
  port::rope_apply<port::HalfSplit>(args);
}
