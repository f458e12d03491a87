// A mutant: its own index arithmetic, but each axis's padding split on the wrong side: the larger
// half before the grid instead of pad // 2 (lat 7 -> 12: +3 / +2 instead of +2 / +3), as F.pad
// with its (before, after) pair swapped would.
#include "window_copy.h"
#include "window_index.h"

namespace port {
struct PaddingWrongSide {
  template <class Geometry>
  LC_HOST_DEVICE static Axis axis(const Geometry& geometry, int a) {
    Axis axis = ContractAxes::axis(geometry, a);
    axis.pad_before = axis.padded - axis.size - geometry.pad_before[a];  // BUG: the after side
    return axis;
  }
};
}  // namespace port

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  const port::Partition partition = port::partition<port::PaddingWrongSide>(args.geometry);
  port::copy_tokens(args, args.slots,
                    [&](long long slot) { return port::token_of_slot(partition, slot); });
}
