// IEEE fp16 stored as 16-bit patterns with the project's own round-to-nearest-even conversions,
// identical on host and device (as bf16.h does for bf16): bitwise checks between the CPU
// reference and a GPU kernel mean something, whatever the vendor's half type does.
#pragma once

#include <cstdint>

#include "layoutcheck/platform/bf16.h"

namespace layoutcheck {

using fp16_bits = std::uint16_t;

// Round to nearest, ties to even; overflow to infinity, subnormals kept, NaN stays NaN (quiet).
LC_HOST_DEVICE inline fp16_bits float_to_fp16(float value) {
  const std::uint32_t bits = float_bits(value);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const std::uint32_t exponent = (bits >> 23) & 0xffu;
  std::uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xffu) return static_cast<fp16_bits>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
  const int unbiased = static_cast<int>(exponent) - 127;
  if (unbiased > 15) return static_cast<fp16_bits>(sign | 0x7c00u);
  if (unbiased >= -14) {  // normal in fp16: keep 10 bits, round on the 13 dropped
    std::uint32_t half = (static_cast<std::uint32_t>(unbiased + 15) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry into infinity
    return static_cast<fp16_bits>(sign | half);
  }
  if (unbiased < -25) return static_cast<fp16_bits>(sign);  // below half the smallest subnormal
  mantissa |= 0x800000u;            // subnormal in fp16: value = mantissa * 2^(unbiased - 23)
  const int shift = -unbiased - 1;  // 14..24: bits dropped to reach units of 2^-24
  std::uint32_t half = mantissa >> shift;
  const std::uint32_t rest = mantissa & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
  return static_cast<fp16_bits>(sign | half);
}

LC_HOST_DEVICE inline float fp16_to_float(fp16_bits value) {
  const std::uint32_t sign = static_cast<std::uint32_t>(value & 0x8000u) << 16;
  const std::uint32_t exponent = (value >> 10) & 0x1fu;
  std::uint32_t mantissa = value & 0x3ffu;
  if (exponent == 0x1fu) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  if (mantissa == 0) return bits_float(sign);
  int e = -1;  // subnormal: normalise
  do {
    ++e;
    mantissa <<= 1;
  } while ((mantissa & 0x400u) == 0);
  return bits_float(sign | (static_cast<std::uint32_t>(112 - e) << 23) |
                    ((mantissa & 0x3ffu) << 13));
}

}  // namespace layoutcheck
