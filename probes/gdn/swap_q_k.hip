// Mutant: Q and K swapped: the query is read from the key segment and vice versa.
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long q(const Dims& d, long long h, long long k) {
    return FlatAddressing::k(d, h, k);  // BUG
  }
  __device__ static long long k(const Dims& d, long long h, long long k) {
    return FlatAddressing::q(d, h, k);  // BUG
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
