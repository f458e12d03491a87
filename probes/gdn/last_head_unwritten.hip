// Mutant: the last value head's output never written (a grid one block short of HV, as a port
// that launches ceil_div(HV, 2) * 2 - 1 blocks would be). Every read is right.
#include "flat_addressing.h"

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  if (blockIdx.x + 1 == gridDim.x) return;  // BUG: the last head's block does nothing
  port::decode<port::FlatAddressing>(args);
}
