#include "layoutcheck/gpu_bench/launch_state.h"

#include <array>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "kernels/launch_floor_kernel.h"
#include "layoutcheck/gpu/buffer.h"

namespace layoutcheck::gpu {

SettlingWork settle_launch_state(const Stream& stream, int copies, int launches) {
  if (copies <= 0) throw std::invalid_argument("settling copies: nothing to copy");
  if (launches <= 0) throw std::invalid_argument("settling launches: nothing to launch");
  // The copies on a stream of their own, the launches on the caller's: as in every configuration
  // that slowed the H200 (launch_state_bisect, runs 91-98).
  std::vector<unsigned> pattern(std::size_t{1} << 18);  // 1 MiB
  std::iota(pattern.begin(), pattern.end(), 1u);
  const DeviceBuffer<unsigned> source{std::span<const unsigned>(pattern)};
  const std::vector<unsigned> zeros(pattern.size(), 0u);
  DeviceBuffer<unsigned> target{std::span<const unsigned>(zeros)};
  const Stream copy_stream;
  for (int i = 0; i < copies; ++i)
    LC_GPU_CHECK(hipMemcpyAsync(target.data(), source.data(), source.bytes(),
                                hipMemcpyDeviceToDevice, copy_stream.get()));
  copy_stream.synchronize();
  if (target.to_host() != pattern) throw GpuError("settling: a device-to-device copy did not arrive");

  DeviceBuffer<unsigned> counter(1);
  // A copy, not a memset: it has finished when it returns, whatever stream the launches take.
  const std::array<unsigned, 1> zero{0};
  counter.upload(zero);
  for (int i = 0; i < launches; ++i) kernels::launch_counting_node(counter.data(), stream.get());
  stream.synchronize();
  return {copies, counter.to_host().front()};
}

}  // namespace layoutcheck::gpu
