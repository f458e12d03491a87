// A mutant: its own index arithmetic, but the shifted block's roll applied with the axes'
// half-windows swapped between lat and lon (lat rolled by WW / 2, lon by WH / 2), as a port
// that wrote torch.roll's shifts in the order of another tensor layout would.
#include "window_copy.h"
#include "window_index.h"

namespace port {
struct ShiftOnWrongAxes {
  template <class Geometry>
  LC_HOST_DEVICE static Axis axis(const Geometry& geometry, int a) {
    Axis axis = ContractAxes::axis(geometry, a);
    // BUG: lat takes lon's half-window and lon takes lat's
    if (a == 1) axis.shift = geometry.shift * (geometry.window[2] / 2) % axis.padded;
    if (a == 2) axis.shift = geometry.shift * (geometry.window[1] / 2) % axis.padded;
    return axis;
  }
};
}  // namespace port

extern "C" __global__ void pangu_port(layoutcheck::PanguWindowArgs args) {
  const port::Partition partition = port::partition<port::ShiftOnWrongAxes>(args.geometry);
  port::copy_tokens(args, args.slots,
                    [&](long long slot) { return port::token_of_slot(partition, slot); });
}
