// Mutant: value head hv uses key head hv % H instead of hv / G.
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long key_head(const Dims& d, long long hv) {
    return hv % d.H;  // BUG: should be hv / G
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
