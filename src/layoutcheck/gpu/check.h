// Every GPU runtime call, runtime-compiler call and kernel launch goes through one of these macros;
// a failure becomes a GpuError naming the call, where it was made and the runtime's message:
//   "hipMalloc(&pointer, bytes) failed at buffer.h:31: out of memory (hipErrorOutOfMemory)"
#pragma once

#include <stdexcept>
#include <string>

#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {

class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_gpu_error(const char* call, const char* file, int line,
                                  const std::string& message);

inline void check_result(hipError_t result, const char* call, const char* file, int line) {
  if (result != hipSuccess) {
    // A failed call also records itself as the runtime's "last error"; clear it, or the next
    // launch check would blame its kernel for this call's (non-sticky) failure, e.g. an OOM.
    (void)hipGetLastError();
    throw_gpu_error(call, file, line,
                    std::string(hipGetErrorString(result)) + " (" + hipGetErrorName(result) + ")");
  }
}

inline void check_result(hiprtcResult result, const char* call, const char* file, int line) {
  if (result != HIPRTC_SUCCESS) throw_gpu_error(call, file, line, hiprtcGetErrorString(result));
}

// After a <<<...>>> launch: configuration errors surface here; faults inside the kernel surface at
// the next synchronising call, which is checked too.
inline void check_launch(const char* kernel, const char* file, int line) {
  const hipError_t result = hipGetLastError();
  if (result != hipSuccess)
    throw_gpu_error((std::string("launch of ") + kernel).c_str(), file, line,
                    std::string(hipGetErrorString(result)) + " (" + hipGetErrorName(result) + ")");
}

}  // namespace layoutcheck::gpu

#define LC_GPU_CHECK(call) ::layoutcheck::gpu::check_result((call), #call, __FILE__, __LINE__)
#define LC_GPU_CHECK_LAUNCH(kernel_name) \
  ::layoutcheck::gpu::check_launch((kernel_name), __FILE__, __LINE__)
