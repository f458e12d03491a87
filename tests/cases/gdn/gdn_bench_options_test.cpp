#include "cases/gdn/bench/gdn_bench_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {
namespace {

std::string error_of(GdnBenchOptions options) {
  try {
    validate_bench_options(options);
  } catch (const InputError& error) {
    return error.diagnostics().at(0).str();
  }
  return "";
}

TEST(GdnBenchOptions, DefaultsAreValidAndBatchesSorted) {
  GdnBenchOptions options;
  options.batches = {256, 1, 64, 8};
  validate_bench_options(options);
  EXPECT_THAT(options.batches, ::testing::ElementsAre(1, 8, 64, 256));
}

TEST(GdnBenchOptions, NamesTheBadValue) {
  GdnBenchOptions options;
  options.batches = {1, 0};
  EXPECT_EQ(error_of(options),
            "<command line>: error[usage]: --batch 0 is not a positive batch size (fix: batch "
            "sizes are 1 or more)");
  options.batches = {8, 1, 8};
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("--batch lists 8 twice"));
  options.batches = {};
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("--batch lists no batch size"));
  options = {};
  options.layers = 0;
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("--layers must be 1 or more"));
  options = {};
  options.steps = 0;
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("--steps must be 1 or more"));
  options = {};
  options.replays = 0;
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("--replays"));
  options = {};
  options.shape.HV = 40;
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("shape is invalid"));
  // Past the kernels' bounds, refused before any byte count could overflow.
  options = {};
  options.shape.K = std::int64_t{1} << 40;
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("more than 2^31 elements"));
  options = {};
  options.batches = {1, kMaxBenchBatch + 1};
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("--batch 65536 is more than 65535 rows"));
  options = {};
  options.layers = kMaxBenchLayers + 1;
  EXPECT_THAT(error_of(options), ::testing::HasSubstr("--layers 4097 is more than 4096"));
}

TEST(GdnBenchOptions, ShapeOverrides) {
  GdnShape shape;
  apply_shape_overrides(shape, {{"HV", 32}, {"K", 64}});
  EXPECT_EQ(shape.HV, 32);
  EXPECT_EQ(shape.K, 64);
  EXPECT_EQ(shape.H, 16);
  EXPECT_THROW(apply_shape_overrides(shape, {{"G", 2}}), InputError);
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// `bench --case gdn` reaches the GDN bench through the shared request: every knob arrives.
TEST(GdnBenchOptions, TheSharedRequestReachesTheGdnBench) {
  BenchRequest request;
  request.batches = {1, 64};
  request.layers = 4;
  request.steps = 16;
  request.replays = 10;
  request.warmup_replays = 2;
  request.overlapped_launches = true;
  request.gpu_probe = false;
  request.sizes = {{"HV", 32}, {"W", 3}};
  request.command = "layoutcheck bench --case gdn";
  const GdnBenchOptions options = gdn_bench_options(request);
  EXPECT_THAT(options.batches, ::testing::ElementsAre(1, 64));
  EXPECT_EQ(options.layers, 4);
  EXPECT_EQ(options.steps, 16);
  EXPECT_EQ(options.replays, 10);
  EXPECT_EQ(options.warmup_replays, 2);
  EXPECT_TRUE(options.overlapped_launches);
  EXPECT_FALSE(options.gpu_probe);
  EXPECT_EQ(options.shape.HV, 32);
  EXPECT_EQ(options.shape.W, 3);
  EXPECT_EQ(options.shape.H, GdnShape{}.H);
  EXPECT_EQ(options.command, request.command);
  EXPECT_EQ(options.hot_replays, GdnBenchOptions{}.hot_replays);

  request.sizes = {{"D", 8}};
  EXPECT_THROW((void)gdn_bench_options(request), InputError);  // not a GDN size
}

}  // namespace
}  // namespace layoutcheck
