// Mutant: B and A swapped: beta is computed from the decay input and vice versa.
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long b(const Dims& d, long long hv) {
    return FlatAddressing::a(d, hv);  // BUG
  }
  __device__ static long long a(const Dims& d, long long hv) {
    return FlatAddressing::b(d, hv);  // BUG
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
