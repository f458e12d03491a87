// bf16 stored as 16-bit patterns with the project's own round-to-nearest-even conversions,
// identical on host and device, so that bitwise checks between CPU reference and GPU kernels mean
// something. No vendor bf16 type is used anywhere in the project.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__HIPCC__) || defined(__CUDACC__)
#define LC_HOST_DEVICE __host__ __device__
#else
#define LC_HOST_DEVICE
#endif

namespace layoutcheck {

using bf16_bits = std::uint16_t;

LC_HOST_DEVICE inline std::uint32_t float_bits(float value) {
#if defined(__HIP_DEVICE_COMPILE__)
  // clang builtin: needs no HIP header, so bf16.h works whatever was included before it
  return __builtin_bit_cast(std::uint32_t, value);
#elif defined(__CUDA_ARCH__)
  return __float_as_uint(value);
#else
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
#endif
}

LC_HOST_DEVICE inline float bits_float(std::uint32_t bits) {
#if defined(__HIP_DEVICE_COMPILE__)
  return __builtin_bit_cast(float, bits);
#elif defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
#endif
}

// Round to nearest, ties to even; NaN stays NaN (quiet), infinities stay infinite.
LC_HOST_DEVICE inline bf16_bits float_to_bf16(float value) {
  const std::uint32_t bits = float_bits(value);
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0)
    return static_cast<bf16_bits>((bits >> 16) | 0x0040u);
  const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<bf16_bits>((bits + rounding) >> 16);
}

LC_HOST_DEVICE inline float bf16_to_float(bf16_bits value) {
  return bits_float(static_cast<std::uint32_t>(value) << 16);
}

}  // namespace layoutcheck
