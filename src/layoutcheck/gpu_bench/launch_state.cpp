#include "layoutcheck/gpu_bench/launch_state.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/launch_floor_kernel.h"
#include "layoutcheck/gpu/buffer.h"

namespace layoutcheck::gpu {

SettlingWork settle_launch_state(const Stream& stream, int copies, int launches) {
  if (copies <= 0) throw std::invalid_argument("settling copies: nothing to copy");
  if (launches <= 0) throw std::invalid_argument("settling launches: nothing to launch");
  // Each copy into a slot of its own, so that every one is checked. On a stream of their own,
  // beside the caller's as an application's copies are (copies on the legacy stream settle alike).
  constexpr std::size_t kSlot = std::size_t{1} << 18;  // 1 MiB of unsigned
  std::vector<unsigned> pattern(kSlot);
  std::iota(pattern.begin(), pattern.end(), 1u);
  const DeviceBuffer<unsigned> source{std::span<const unsigned>(pattern)};
  const std::vector<unsigned> zeros(kSlot * static_cast<std::size_t>(copies), 0u);
  DeviceBuffer<unsigned> target{std::span<const unsigned>(zeros)};
  const Stream copy_stream;
  for (int i = 0; i < copies; ++i)
    LC_GPU_CHECK(hipMemcpyAsync(target.data() + kSlot * static_cast<std::size_t>(i), source.data(),
                                source.bytes(), hipMemcpyDeviceToDevice, copy_stream.get()));
  copy_stream.synchronize();
  const std::vector<unsigned> copied = target.to_host();
  std::int64_t arrived = 0;
  for (std::size_t slot = 0; slot < static_cast<std::size_t>(copies); ++slot)
    arrived += std::equal(pattern.begin(), pattern.end(), copied.begin() + slot * kSlot) ? 1 : 0;
  if (arrived != copies)
    throw GpuError("settling: " + std::to_string(copies - arrived) + " of " +
                   std::to_string(copies) + " device-to-device copies did not arrive");

  DeviceBuffer<unsigned> counter(1);
  const std::array<unsigned, 1> zero{0};
  counter.upload(zero);
  // An upload from pageable memory may return before it lands; the launches may take a
  // non-blocking stream, which would not wait for it.
  LC_GPU_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < launches; ++i) kernels::launch_counting_node(counter.data(), stream.get());
  stream.synchronize();
  return {arrived, counter.to_host().front()};
}

}  // namespace layoutcheck::gpu
