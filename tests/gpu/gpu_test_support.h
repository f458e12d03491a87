// Shared by the GPU suites: skipping without a GPU (with the reason), the shapes every path is
// checked at (odd sizes beside the target, rocPRIM-style), and comparisons against the fp64
// reference.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cases/gdn/shape.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/platform/gpu_runtime.h"  // LC_GPU_VENDOR_*

// Skips the test, saying why, when no GPU can be used (CI, a build machine).
#define LC_REQUIRE_GPU()                                            \
  do {                                                              \
    if (!::layoutcheck::gpu::gpu_available())                       \
      GTEST_SKIP() << ::layoutcheck::gpu::gpu_unavailable_reason(); \
  } while (false)

namespace layoutcheck::testing {

struct ShapeCase {
  const char* name;
  GdnShape shape;
};

// The target (16/48, fast path), Qwen3-Next-80B (16/32, fast path), and odd shapes for the generic
// kernel: G = 3 with K, V not multiples of 8, a single key head, conv width 3 and 5.
inline std::vector<ShapeCase> gpu_shapes() {
  return {
      {"16/48/128/128", GdnShape{16, 48, 128, 128, 4}},
      {"16/32/128/128", GdnShape{16, 32, 128, 128, 4}},
      {"2/6/37/65", GdnShape{2, 6, 37, 65, 4}},
      {"1/3/128/96", GdnShape{1, 3, 128, 96, 3}},
      {"3/3/64/40", GdnShape{3, 3, 64, 40, 5}},
  };
}

// An architecture to compile for at run time: the device's, or a representative one of the
// backend when there is no device (runtime compilation needs no GPU).
inline std::string compile_arch() {
  if (gpu::gpu_available()) return gpu::current_device().arch;
#if defined(LC_GPU_VENDOR_AMD)
  return "gfx90a";
#else
  return "sm_90";
#endif
}

inline constexpr double kOutputTolerance = 1e-2;  // relative L2 against fp64
inline constexpr double kStateTolerance = 1e-5;

}  // namespace layoutcheck::testing
