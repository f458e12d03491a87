#include "layoutcheck/gpu_bench/copy_bandwidth.h"

#include <algorithm>
#include <stdexcept>

#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/gpu_bench/graph_timing.h"

namespace layoutcheck::gpu {

CopyBandwidth measure_copy_bandwidth(const Stream& stream, std::int64_t bytes, int warmup,
                                     int samples) {
  if (bytes <= 0 || samples <= 0) throw std::invalid_argument("copy bandwidth: nothing to time");
  const auto size = static_cast<std::size_t>(bytes);
  DeviceBuffer<unsigned char> source(size), target(size);
  source.fill_bytes(0x5a);  // not zeros: nothing may shortcut a copy of zeros
  target.fill_bytes(0);
  auto copy = [&] {
    LC_GPU_CHECK(
        hipMemcpyAsync(target.data(), source.data(), size, hipMemcpyDeviceToDevice, stream.get()));
  };
  for (int i = 0; i < warmup; ++i) copy();
  stream.synchronize();

  CopyBandwidth result;
  result.bytes_per_copy = 2 * bytes;
  Event start, stop;
  for (int i = 0; i < samples; ++i) {
    start.record(stream);
    copy();
    stop.record(stream);
    stop.synchronize();
    result.copy_us.push_back(static_cast<double>(stop.milliseconds_since(start)) * 1e3);
  }
  result.copy = summarize(result.copy_us);
  return result;
}

std::vector<double> time_copy_of(const Stream& stream, std::int64_t bytes, std::size_t sets,
                                 int calls, int warmup, int replays) {
  if (bytes <= 0 || sets == 0 || calls <= 0) throw std::invalid_argument("copy: nothing to time");
  constexpr std::int64_t kGrain = std::int64_t{1} << 16;
  const std::int64_t copied = std::max(bytes / 2 / kGrain, std::int64_t{1}) * kGrain;
  const auto size = static_cast<std::size_t>(copied);
  std::vector<DeviceBuffer<unsigned char>> from, to;
  for (std::size_t set = 0; set < sets; ++set) {
    from.emplace_back(size).fill_bytes(0x5a);
    to.emplace_back(size);
  }
  const Graph graph(stream, [&](hipStream_t s) {
    for (int call = 0; call < calls; ++call) {
      const std::size_t set = static_cast<std::size_t>(call) % sets;
      LC_GPU_CHECK(
          hipMemcpyAsync(to[set].data(), from[set].data(), size, hipMemcpyDeviceToDevice, s));
    }
  });
  std::vector<double> us = time_graph_replays(graph, stream, warmup, replays, calls);
  for (double& sample : us) sample *= static_cast<double>(bytes) / static_cast<double>(2 * copied);
  return us;
}

}  // namespace layoutcheck::gpu
