// A mutant: gathers by the map, but clamps its -1 entries to 0 (an index_select port that forgot
// the padding protocol), so every padding slot holds a copy of grid token 0 instead of zeros.
#include "window_copy.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  port::copy_tokens(args, args.slots, [&](long long slot) {
    const int token = args.map[slot];
    return token < 0 ? 0 : token;  // BUG: -1 means "write zero", not "read token 0"
  });
}
