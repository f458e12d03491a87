// The correct gather with its own index arithmetic: each slot's grid token found from the
// geometry (padding before the grid, the roll of a shifted block, the window order), as a
// framework's pad + roll + window permute would place it. The map is not read.
#include "window_copy.h"
#include "window_index.h"

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  const port::Partition partition = port::partition<port::ContractAxes>(args.geometry);
  port::copy_tokens(args, args.slots,
                    [&](long long slot) { return port::token_of_slot(partition, slot); });
}
