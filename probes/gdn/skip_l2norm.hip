// Mutant: the l2norm of q and k is skipped: a numeric bug, not a layout one.
// Its manifest claims the flat layout, as the buggy port would: the probes must find the bug.
#include "flat_addressing.h"

namespace port {
struct Mutant : FlatAddressing {
  static constexpr bool kSkipL2norm = true;  // BUG
};
}  // namespace port

extern "C" __global__ void gdn_decode_port(layoutcheck::GdnDecodeArgs args) {
  port::decode<port::Mutant>(args);
}
