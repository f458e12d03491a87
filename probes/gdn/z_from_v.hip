// Mutant: Z read from the V segment.
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long z(const Dims& d, long long hv, long long v) {
    return FlatAddressing::v(d, hv, v);  // BUG
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
