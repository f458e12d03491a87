// A mutant: its own index arithmetic, cropping the padding but leaving the shifted block's roll
// in place (a window reverse without the torch.roll back), so every token of a shifted block is
// read from the slot of a token half a window away.
#include "window_copy.h"
#include "window_index.h"

namespace port {
struct ShiftNotUndone {
  template <class Geometry>
  LC_HOST_DEVICE static Axis axis(const Geometry& geometry, int a) {
    Axis axis = ContractAxes::axis(geometry, a);
    axis.shift = 0;  // BUG: the roll is not undone
    return axis;
  }
};
}  // namespace port

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  const port::Partition partition = port::partition<port::ShiftNotUndone>(args.geometry);
  port::copy_tokens(args, args.tokens,
                    [&](long long token) { return port::slot_of_token(partition, token); });
}
