// Mutant: qkvz batch rows read at the packed pitch (2HK + 2HV*V elements) instead of the
// qkvz_row_stride the ABI passes. Right wherever the model packs its rows, as the shipped
// contracts do; `run` pads them to show it.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long qkvz_row(const GdnDecodeArgs& args, long long row) {
    return row * (2 * args.H * args.K + 2 * args.HV * args.V);  // BUG
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
