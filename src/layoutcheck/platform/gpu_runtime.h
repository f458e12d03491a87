// The one place the GPU vendor is chosen. Everything GPU in the project is written against the HIP
// runtime and hipRTC spellings:
//   - ROCm/DTK (hipcc, LAYOUTCHECK_GPU_HIP): the real <hip/hip_runtime.h> and <hip/hiprtc.h>;
//   - NVIDIA (nvcc or the host compiler, LAYOUTCHECK_GPU_CUDA): hip_on_cuda.h maps exactly the
//     subset the project uses onto the CUDA 13 runtime and NVRTC (Debian's HIP 5.2 NVIDIA headers
//     do not compile against CUDA 13);
//   - runtime compilation (hipRTC / NVRTC compiling a ported kernel or a generated adapter): the
//     runtime compiler already provides the device builtins, so only the vendor macro is set.
// Afterwards exactly one of LC_GPU_VENDOR_AMD / LC_GPU_VENDOR_NVIDIA is defined, and wave.h (the
// wave-size-agnostic device helpers) is available.
#pragma once

#if defined(__HIPCC_RTC__)
#define LC_GPU_VENDOR_AMD 1
#define LC_GPU_RTC 1
#elif defined(__CUDACC_RTC__)
#define LC_GPU_VENDOR_NVIDIA 1
#define LC_GPU_RTC 1
#elif defined(LAYOUTCHECK_GPU_HIP) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)
#define LC_GPU_VENDOR_AMD 1
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#elif defined(LAYOUTCHECK_GPU_CUDA) || defined(__CUDACC__)
#define LC_GPU_VENDOR_NVIDIA 1
#include "layoutcheck/platform/hip_on_cuda.h"
#else
#error "gpu_runtime.h needs a GPU backend: build with LAYOUTCHECK_GPU_BACKEND=hip or cuda"
#endif

#include "layoutcheck/platform/wave.h"

#if !defined(LC_GPU_RTC)
#include <string>

namespace layoutcheck::platform {

inline constexpr const char* kVendorName =
#if defined(LC_GPU_VENDOR_AMD)
    "AMD (HIP)";
#else
    "NVIDIA (CUDA)";
#endif

// The architecture name runtime compilation targets: "gfx90a", "gfx936", "sm_90".
inline std::string device_arch_name(const hipDeviceProp_t& properties) {
#if defined(LC_GPU_VENDOR_AMD)
  std::string name = properties.gcnArchName;  // "gfx90a:sramecc+:xnack-": keep the processor
  return name.substr(0, name.find(':'));
#else
  return "sm_" + std::to_string(properties.major * 10 + properties.minor);
#endif
}

// The runtime compiler's option selecting that architecture.
inline std::string rtc_arch_option(const std::string& arch_name) {
#if defined(LC_GPU_VENDOR_AMD)
  return "--offload-arch=" + arch_name;
#else
  return "-arch=" + arch_name;
#endif
}

}  // namespace layoutcheck::platform
#endif
