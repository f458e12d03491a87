#include "layoutcheck/gpu/device.h"

#include <optional>

#include "kernels/launch_order.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {
namespace {

struct DeviceProbe {
  std::string unavailable_reason;
  std::optional<DeviceInfo> info;
};

DeviceProbe probe_device() {
  DeviceProbe probe;
  int count = 0;
  const hipError_t result = hipGetDeviceCount(&count);
  if (result != hipSuccess || count == 0) {
    probe.unavailable_reason =
        std::string("no GPU: the ") + platform::kVendorName + " runtime reports " +
        (result != hipSuccess ? std::string(hipGetErrorString(result)) : "0 devices") +
        "; the GPU paths need a supported GPU and its driver (the CPU models still work)";
    (void)hipGetLastError();  // clear the sticky error so later checks report their own
    return probe;
  }
  try {
    DeviceInfo info;
    LC_GPU_CHECK(hipSetDevice(0));
    hipDeviceProp_t properties{};
    LC_GPU_CHECK(hipGetDeviceProperties(&properties, 0));
    info.index = 0;
    info.name = properties.name;
    info.arch = platform::device_arch_name(properties);
    info.vendor = platform::kVendorName;
    info.multiprocessors = properties.multiProcessorCount;
    info.wave_size = properties.warpSize;
    info.global_memory_bytes = static_cast<std::int64_t>(properties.totalGlobalMem);
    info.l2_bytes = properties.l2CacheSize;
    info.shared_memory_per_block = static_cast<std::int64_t>(properties.sharedMemPerBlock);
    info.overlapped_launches = properties.major >= 9 && kernels::overlapped_launches_built();
    probe.info = info;
  } catch (const GpuError& error) {
    probe.unavailable_reason = std::string("no usable GPU: ") + error.what();
  }
  return probe;
}

const DeviceProbe& device_probe() {
  static const DeviceProbe probe = probe_device();
  return probe;
}

}  // namespace

const std::string& gpu_unavailable_reason() {
  return device_probe().unavailable_reason;
}

const DeviceInfo& current_device() {
  const DeviceProbe& probe = device_probe();
  if (!probe.info) throw GpuError(probe.unavailable_reason);
  return *probe.info;
}

std::optional<std::string> overlapped_launch_refusal(const DeviceInfo& device) {
  if (device.overlapped_launches) return std::nullopt;
  return device.name + " (" + device.arch + ") with this build cannot start a kernel before the " +
         "previous one finishes (programmatic dependent launch needs an NVIDIA sm_90 or newer " +
         "device and kernels built for it)";
}

}  // namespace layoutcheck::gpu
