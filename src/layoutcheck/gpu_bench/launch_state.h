// The state a process is in before anything is timed. A fresh process replays graph kernels
// slower until it has made device-to-device copies and a few kernel launches outside any graph
// (kernels/gdn/DESIGN.md has the figures). Not the SM clock, not the memory's latency, not any of
// the library's pieces; what is left is the driver or the GPU's front end. An application's
// process has made both long before it replays its decode graph (the bench's own copy-bandwidth
// measurement and gates make both too), so the bench settles first, and everything it reports is
// timed in that state.
#pragma once

#include <cstdint>

#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// Well past what the H200 needed (DESIGN.md), so a driver that needs a few more still settles.
inline constexpr int kSettlingCopies = 64;
inline constexpr int kSettlingLaunches = 32;

struct SettlingWork {
  std::int64_t copies = 0;    // device-to-device copies of 1 MiB, each checked where it landed
  std::int64_t launches = 0;  // one-thread kernels, as counted on the device
};

// @pre copies > 0 and launches > 0 (else std::invalid_argument, before any GPU call). Makes
//      `copies` device-to-device copies of 1 MiB (each into a slot of its own, checked after) on
//      a stream of its own, then launches `launches` one-thread kernels on `stream`, all outside
//      any graph, and waits for them. Throws GpuError on a failed call or a copy that did not
//      arrive.
SettlingWork settle_launch_state(const Stream& stream, int copies = kSettlingCopies,
                                 int launches = kSettlingLaunches);

}  // namespace layoutcheck::gpu
