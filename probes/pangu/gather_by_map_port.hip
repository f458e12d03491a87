// The correct gather as the native kernel does it: slot s of windows copies grid token map[s],
// zeros where the map says -1 (the index protocol: no zero-filled padded tensor, no roll kernel).
#include "window_copy.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  port::copy_tokens(args, args.slots, [&](long long slot) { return args.map[slot]; });
}
