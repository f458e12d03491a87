#include "layoutcheck/gpu_bench/launch_state.h"

#include <array>
#include <stdexcept>

#include "kernels/launch_floor_kernel.h"
#include "layoutcheck/gpu/buffer.h"

namespace layoutcheck::gpu {

std::int64_t settle_launch_state(const Stream& stream, int launches) {
  if (launches <= 0) throw std::invalid_argument("settling launches: nothing to launch");
  DeviceBuffer<unsigned> counter(1);
  // A copy, not a memset: it has finished when it returns, whatever stream the launches take.
  const std::array<unsigned, 1> zero{0};
  counter.upload(zero);
  for (int i = 0; i < launches; ++i) kernels::launch_counting_node(counter.data(), stream.get());
  stream.synchronize();
  return counter.to_host().front();
}

}  // namespace layoutcheck::gpu
