#include "layoutcheck/gpu/check.h"

#include <string_view>

namespace layoutcheck::gpu {

void throw_gpu_error(const char* call, const char* file, int line, const std::string& message) {
  std::string_view path(file);
  const auto slash = path.find_last_of('/');
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  throw GpuError(std::string(call) + " failed at " + std::string(path) + ":" +
                 std::to_string(line) + ": " + message);
}

}  // namespace layoutcheck::gpu
