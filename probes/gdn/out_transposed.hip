// Mutant: the output written [V][HV] within each batch row instead of the ABI's [HV][V]; every
// input is read right. `run` must say where out is written, not blame Z or the routing.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  __device__ static long long out(const Dims& d, long long row, long long hv, long long v) {
    return (row * d.V + v) * d.HV + hv;  // BUG
  }
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
