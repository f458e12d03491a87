// Overlapped launches (kernels/launch_order.h) compute exactly what serial launches compute: the
// bench's overlapped-launch gate (cases/gdn/gpu/overlapped_launch_gate.h) on every path and every
// split of the fused and recurrent kernels, at batches whose blocks leave multiprocessors idle,
// fill them, and take several waves, for the target shape and an odd one (the generic kernels).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "gpu/gpu_test_support.h"
#include "cases/gdn/random_problem.h"
#include "cases/gdn/standard_layouts.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/gpu/device.h"
#include "cases/gdn/gpu/gdn_device_layer.h"
#include "layoutcheck/gpu/stream.h"
#include "cases/gdn/gpu/overlapped_launch_gate.h"

namespace layoutcheck {
namespace {

using gpu::GdnPath;
using gpu::GdnPathOptions;

// Each of six layers with its own random inputs.
std::vector<GdnStepInputs> layer_inputs(const GdnShape& shape, std::int64_t batch,
                                        StateOrder order) {
  const GdnLayouts layouts = flat_gdn_layouts(shape, order);
  std::vector<GdnStepInputs> inputs;
  for (int i = 0; i < 6; ++i)
    inputs.push_back(
        make_random_step_inputs(shape, layouts, batch, 500 + static_cast<std::uint64_t>(i)));
  return inputs;
}

void expect_same_as_serial(GdnPath path, const GdnPathOptions& options,
                           const std::vector<GdnStepInputs>& inputs) {
  const BitwiseCheck check = gpu::check_overlapped_launches(path, options, inputs, 3);
  EXPECT_GT(check.elements, 0);
  EXPECT_EQ(check.mismatches, 0) << check.mismatches << " of " << check.elements
                                 << " elements differ from serial launches";
}

#define LC_REQUIRE_OVERLAPPED_LAUNCHES()                                                    \
  do {                                                                                      \
    LC_REQUIRE_GPU();                                                                       \
    if (!gpu::current_device().overlapped_launches)                                         \
      GTEST_SKIP() << gpu::current_device().name                                            \
                   << " has no overlapped launches (programmatic dependent launch): every " \
                      "launch there is serial";                                             \
  } while (false)

// No GPU needed: the refusal is a function of what the device and the build can do.
TEST(OverlappedLaunch, TheRefusalNamesTheDeviceAndWhatItLacks) {
  gpu::DeviceInfo device;
  device.name = "Some GPU";
  device.arch = "gfx90a";
  device.overlapped_launches = false;
  const std::optional<std::string> refusal = gpu::overlapped_launch_refusal(device);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("Some GPU (gfx90a)"), std::string::npos) << *refusal;
  EXPECT_NE(refusal->find("sm_90"), std::string::npos) << *refusal;
  device.overlapped_launches = true;
  EXPECT_FALSE(gpu::overlapped_launch_refusal(device).has_value());
}

// Where kernels cannot overlap, asking the library for it is an error, not a silent serial run
// (HIP) or a race (kernels built without the wait).
TEST(OverlappedLaunch, APathLaunchedOverlappedWhereItCannotBeIsRefused) {
  LC_REQUIRE_GPU();
  if (gpu::current_device().overlapped_launches)
    GTEST_SKIP() << gpu::current_device().name << " launches overlapped: nothing to refuse";
  GdnPathOptions options;
  options.launch = kernels::LaunchOrder::overlapped;
  EXPECT_THROW(gpu::GdnPathLauncher(GdnPath::native, options), gpu::GpuError);
}

TEST(OverlappedLaunch, EveryPathComputesWhatSerialLaunchesCompute) {
  LC_REQUIRE_OVERLAPPED_LAUNCHES();
  for (const GdnShape& shape : {GdnShape{16, 48, 128, 128, 4}, GdnShape{2, 6, 37, 65, 4}})
    for (std::int64_t batch : {1, 5, 33}) {
      const std::vector<GdnStepInputs> inputs = layer_inputs(shape, batch, StateOrder::hkv);
      for (GdnPath path : gpu::all_gdn_paths()) {
        SCOPED_TRACE(std::string(gpu::gdn_path_name(path)) + ", H=" + std::to_string(shape.H) +
                     ", batch " + std::to_string(batch));
        expect_same_as_serial(path, {}, inputs);
      }
    }
}

TEST(OverlappedLaunch, EverySplitComputesWhatSerialLaunchesCompute) {
  LC_REQUIRE_OVERLAPPED_LAUNCHES();
  const GdnShape shape;
  for (StateOrder order : {StateOrder::hkv, StateOrder::hvk}) {
    const std::vector<GdnStepInputs> inputs = layer_inputs(shape, 3, order);
    for (kernels::StateSplit split : kernels::all_state_splits())
      for (GdnPath path : {GdnPath::baseline, GdnPath::adapter_upstream, GdnPath::native}) {
        SCOPED_TRACE(std::string(gpu::gdn_path_name(path)) + ", split " +
                     kernels::state_split_name(split) +
                     (order == StateOrder::hkv ? ", [HV,K,V]" : ", [HV,V,K]"));
        GdnPathOptions options;
        options.state_order = order;
        options.split = split;
        expect_same_as_serial(path, options, inputs);
      }
  }
}

// Not vacuous: overlapped launches do overlap. Eight launches of one layer in one graph break the
// contract (each reads the state the launch before it writes); whole_early issues its state loads
// before its wait, so launched overlapped it reads the state before the previous launch has
// written it, and the result differs from serial launches.
TEST(OverlappedLaunch, LaunchesThatBreakTheContractRace) {
  LC_REQUIRE_OVERLAPPED_LAUNCHES();
  const GdnShape shape;
  const GdnStepInputs inputs = make_random_step_inputs(shape, flat_gdn_layouts(shape), 1, 17);
  GdnPathOptions options;
  options.split = kernels::StateSplit::whole_early;
  const gpu::GdnPathLauncher launcher(GdnPath::native, options);
  const auto state_after = [&](kernels::LaunchOrder launch) {
    gpu::GdnDeviceLayer layer(inputs);
    const auto workspace = launcher.make_workspace(shape, 1);
    LC_GPU_CHECK(hipDeviceSynchronize());
    const gpu::Stream stream(gpu::Stream::Kind::non_blocking);
    const gpu::Graph graph(stream, [&](hipStream_t s) {
      for (int i = 0; i < 8; ++i) launcher.enqueue(layer, *workspace, s, launch);
    });
    graph.launch(stream);
    stream.synchronize();
    return layer.download().state;
  };
  const std::vector<float> serial = state_after(kernels::LaunchOrder::serial);
  const std::vector<float> overlapped = state_after(kernels::LaunchOrder::overlapped);
  ASSERT_EQ(serial.size(), overlapped.size());
  EXPECT_NE(std::memcmp(serial.data(), overlapped.data(), serial.size() * sizeof(float)), 0)
      << "eight overlapped launches over one state computed what serial launches compute: the "
         "launches did not overlap, and the tests above would pass whatever the kernels did";
}

}  // namespace
}  // namespace layoutcheck
