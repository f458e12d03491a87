#include "layoutcheck/gpu_bench/copy_bandwidth.h"

#include <stdexcept>

#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/check.h"

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

}  // namespace layoutcheck::gpu
