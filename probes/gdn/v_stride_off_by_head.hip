// Mutant: V read one head too far: V[hv] comes from V[hv + 1] (the last head reads Z[0]).
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long v(const Dims& d, long long hv, long long v) {
    return FlatAddressing::v(d, hv, v) + d.V;  // BUG: off by one head
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
