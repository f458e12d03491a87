// Mutant: the state read and written as [HV,V,K] while the kernel claims [HV,K,V].
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long s(const Dims& d, long long hv, long long k, long long v) {
    return hv * d.K * d.V + v * d.K + k;  // BUG: transposed
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
