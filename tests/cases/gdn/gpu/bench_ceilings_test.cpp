// The two measurements every bench figure is set against, on the device: the copy bandwidth and
// the launch floor each give one positive sample per timed repetition, in a plausible range, and
// refuse to time nothing. The copies and launches that settle the launch cost first all run.
#include <gtest/gtest.h>

#include <stdexcept>

#include "gpu/gpu_test_support.h"
#include "layoutcheck/gpu_bench/copy_bandwidth.h"
#include "layoutcheck/gpu_bench/launch_floor.h"
#include "layoutcheck/gpu_bench/launch_state.h"

namespace layoutcheck::gpu {
namespace {

TEST(BenchCeilings, LaunchFloorIsOneSamplePerReplayOfAFewMicroseconds) {
  LC_REQUIRE_GPU();
  const Stream stream;
  const LaunchFloor floor = measure_launch_floor(stream, 13, 2, 7);
  EXPECT_EQ(floor.nodes_per_graph, 13);
  ASSERT_EQ(floor.node_us.size(), 7u);
  for (double sample : floor.node_us) {
    EXPECT_GT(sample, 0.0);
    EXPECT_LT(sample, 100.0) << "a one-thread kernel node took over 100 µs";
  }
  EXPECT_EQ(floor.node.count, 7u);
  EXPECT_THROW(measure_launch_floor(stream, 0, 1, 1), std::invalid_argument);
  EXPECT_THROW(measure_launch_floor(stream, 4, 1, 0), std::invalid_argument);
}

TEST(BenchCeilings, SettlingRunsEveryCopyAndLaunchAndRefusesZero) {
  LC_REQUIRE_GPU();
  const Stream stream;
  const SettlingWork few = settle_launch_state(stream, 3, 13);
  EXPECT_EQ(few.copies, 3);
  EXPECT_EQ(few.launches, 13);
  const SettlingWork usual = settle_launch_state(stream);
  EXPECT_EQ(usual.copies, kSettlingCopies);
  EXPECT_EQ(usual.launches, kSettlingLaunches);
  EXPECT_THROW(settle_launch_state(stream, 0, 1), std::invalid_argument);
  EXPECT_THROW(settle_launch_state(stream, 1, 0), std::invalid_argument);
}

TEST(BenchCeilings, CopyBandwidthCountsReadAndWrittenBytes) {
  LC_REQUIRE_GPU();
  const Stream stream;
  const CopyBandwidth copy = measure_copy_bandwidth(stream, 64 << 20, 1, 5);
  EXPECT_EQ(copy.bytes_per_copy, 2 * (64 << 20));
  ASSERT_EQ(copy.copy_us.size(), 5u);
  EXPECT_GT(copy.bytes_per_second(), 1e10);  // above 10 GB/s on any GPU this targets
  EXPECT_THROW(measure_copy_bandwidth(stream, 0, 1, 1), std::invalid_argument);
}

}  // namespace
}  // namespace layoutcheck::gpu
