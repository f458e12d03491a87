// The project's fp16 conversions against the compiler's own _Float16 (IEEE binary16, round to
// nearest even): every half round-trips, and floats from every binade convert the same way,
// subnormals, overflow to infinity and ties included.
#include "layoutcheck/platform/fp16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace layoutcheck {
namespace {

fp16_bits compiler_half(float value) {
  const _Float16 half = static_cast<_Float16>(value);
  fp16_bits bits;
  std::memcpy(&bits, &half, sizeof bits);
  return bits;
}

TEST(Fp16, EveryHalfRoundTrips) {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const float value = fp16_to_float(static_cast<fp16_bits>(bits));
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(fp16_to_float(float_to_fp16(value))));
      continue;
    }
    ASSERT_EQ(float_to_fp16(value), bits) << std::hex << bits;
    ASSERT_EQ(compiler_half(value), bits) << std::hex << bits;
  }
}

TEST(Fp16, FloatsConvertLikeTheCompiler) {
  std::mt19937 random(7);
  for (int i = 0; i < 2'000'000; ++i) {
    const std::uint32_t bits = random();
    float value;
    std::memcpy(&value, &bits, sizeof value);
    if (std::isnan(value)) continue;
    ASSERT_EQ(float_to_fp16(value), compiler_half(value)) << std::hex << bits;
  }
  // Ties to even, the largest finite half, overflow, the smallest subnormal and half of it.
  for (float value : {1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, 65504.0f, 65520.0f, 1e10f,
                      5.9604645e-8f, 2.9802322e-8f, 4.4703484e-8f, -0.0f})
    EXPECT_EQ(float_to_fp16(value), compiler_half(value)) << value;
}

}  // namespace
}  // namespace layoutcheck
