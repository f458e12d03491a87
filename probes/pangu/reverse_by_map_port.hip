// The correct reverse as the native kernel does it: grid token t copies slot map[t] of windows
// (the reverse map: the padding cropped, the roll undone). The same copy as the gather.
#include "window_copy.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  port::copy_tokens(args, args.tokens, [&](long long token) { return args.map[token]; });
}
