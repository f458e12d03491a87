// The correct reverse with its own index arithmetic: each grid token's slot found from the
// geometry (its padded position after the roll, then the window order). The map is not read.
#include "window_copy.h"
#include "window_index.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  const port::Partition partition = port::partition<port::ContractAxes>(args.geometry);
  port::copy_tokens(args, args.tokens,
                    [&](long long token) { return port::slot_of_token(partition, token); });
}
