// Mutant: the qkvz row stride forgets the Z segment (2HK + HV*V instead of 2HK + 2HV*V).
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long qkvz_row(const GdnDecodeArgs& args, long long row) {
    return row * (2 * args.H * args.K + args.HV * args.V);  // BUG
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
