// The platform layer: every failing call becomes an error naming the call, the place and the
// runtime's message; no GPU is reported as such; the compile-time wave size is the device's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "gpu/gpu_test_support.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/rtc.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {
namespace {

using ::testing::HasSubstr;

hipError_t failing_runtime_call() {
  return hipErrorNoDevice;
}

TEST(GpuCheck, FailureNamesTheCallThePlaceAndTheMessage) {
  try {
    LC_GPU_CHECK(failing_runtime_call());
    FAIL() << "no exception";
  } catch (const GpuError& error) {
    const std::string message = error.what();
    EXPECT_THAT(message, HasSubstr("failing_runtime_call()"));
    EXPECT_THAT(message, HasSubstr("platform_test.cpp:"));
    EXPECT_THAT(message, HasSubstr(hipGetErrorString(hipErrorNoDevice)));
  }
}

TEST(GpuCheck, SuccessDoesNotThrow) {
  EXPECT_NO_THROW(LC_GPU_CHECK(hipSuccess));
}

TEST(GpuDevice, NoGpuIsReportedClearly) {
  if (gpu_available()) {
    const DeviceInfo& device = current_device();
    EXPECT_FALSE(device.name.empty());
    EXPECT_FALSE(device.arch.empty());
    EXPECT_GT(device.multiprocessors, 0);
    EXPECT_TRUE(device.wave_size == 32 || device.wave_size == 64);
    return;
  }
  EXPECT_THAT(gpu_unavailable_reason(), HasSubstr("no"));
  EXPECT_THAT(gpu_unavailable_reason(), HasSubstr("GPU"));
  try {
    (void)current_device();
    FAIL() << "no exception";
  } catch (const GpuError& error) {
    EXPECT_EQ(std::string(error.what()), gpu_unavailable_reason());
  }
}

TEST(GpuBuffer, RoundTripAndSizeChecks) {
  LC_REQUIRE_GPU();
  std::vector<float> values = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f};
  DeviceBuffer<float> buffer{std::span<const float>(values)};
  EXPECT_EQ(buffer.to_host(), values);
  std::vector<float> wrong(3);
  EXPECT_THROW(buffer.download(wrong), GpuError);
  EXPECT_THROW(buffer.upload(wrong), GpuError);
}

TEST(GpuBuffer, OutOfMemoryNamesTheCall) {
  LC_REQUIRE_GPU();
  try {
    DeviceBuffer<char> huge(std::size_t{1} << 62);
    FAIL() << "no exception";
  } catch (const GpuError& error) {
    EXPECT_THAT(std::string(error.what()), HasSubstr("hipMalloc"));
  }
}

// The compile-time wave size kernels use equals the device's; ballots, sums and broadcasts span
// exactly one wave.
TEST(GpuWave, CompileTimeWaveSizeIsTheDevices) {
  LC_REQUIRE_GPU();
  RtcSource source;
  source.name = "wave_size.hip";
  source.text = R"(
#include "layoutcheck/platform/gpu_runtime.h"
extern "C" __global__ void wave_size(int* out) {
  if (threadIdx.x == 0) out[0] = layoutcheck::wave::kWaveSize;
  // a full-wave ballot sets exactly kWaveSize bits of the 64-bit mask
  const layoutcheck::wave::lane_mask all = layoutcheck::wave::ballot(true);
  if (threadIdx.x == 0) out[1] = __popcll(all);
  const float sum = layoutcheck::wave::group_sum<layoutcheck::wave::kWaveSize>(1.0f);
  if (threadIdx.x == 0) out[2] = (int)sum;
  // every lane gets lane 0's value; the last lane reports what it got
  const int first = layoutcheck::wave::broadcast_first((int)threadIdx.x + 7);
  if (threadIdx.x == layoutcheck::wave::kWaveSize - 1) out[3] = first;
}
)";
  source.entries = {"wave_size"};
  const RtcModule module = RtcModule::compile(source);
  DeviceBuffer<int> out(4);
  out.fill_bytes(0);
  int* pointer = out.data();
  void* params[] = {&pointer};
  Stream stream;
  module.launch("wave_size", dim3(1), dim3(static_cast<unsigned>(current_device().wave_size)), 0,
                stream.get(), params);
  stream.synchronize();
  const std::vector<int> values = out.to_host();
  EXPECT_EQ(values[0], current_device().wave_size);
  EXPECT_EQ(values[1], current_device().wave_size);
  EXPECT_EQ(values[2], current_device().wave_size);
  EXPECT_EQ(values[3], 7);
}

}  // namespace
}  // namespace layoutcheck::gpu
