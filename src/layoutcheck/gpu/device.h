// Which GPU the project runs on, and a clear answer when there is none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace layoutcheck::gpu {

struct DeviceInfo {
  int index = 0;
  std::string name;    // "NVIDIA H200"
  std::string arch;    // "sm_90", "gfx90a": what runtime compilation targets
  std::string vendor;  // "NVIDIA (CUDA)" or "AMD (HIP)"
  int multiprocessors = 0;
  int wave_size = 0;  // from the device; kernels use the compile-time twin in wave.h
  std::int64_t global_memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t shared_memory_per_block = 0;
  // Kernels can start while the previous one finishes (kernels/launch_order.h): an NVIDIA sm_90+
  // device, and kernels built for it.
  bool overlapped_launches = false;
};

// Empty when a GPU can be used; otherwise one line saying why not ("no GPU: ...").
// Never throws; the answer is computed once.
const std::string& gpu_unavailable_reason();
inline bool gpu_available() {
  return gpu_unavailable_reason().empty();
}

// The device everything runs on (device 0). @post throws GpuError with gpu_unavailable_reason()
// when there is no usable GPU.
const DeviceInfo& current_device();

// Why kernels cannot be launched overlapped on `device` with this build (one line for an error
// message), or nothing when they can: the one answer the bench, the timing tool and
// GdnPathLauncher refuse an overlapped launch with.
std::optional<std::string> overlapped_launch_refusal(const DeviceInfo& device);

}  // namespace layoutcheck::gpu
