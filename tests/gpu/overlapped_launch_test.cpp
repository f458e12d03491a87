// Overlapped launches (kernels/launch_order.h) compute exactly what serial launches compute. A
// graph of several layers, each with its own inputs and state, all sharing one workspace as the
// bench's graphs do, is replayed a few times with every kernel launched overlapped; every layer's
// output, state and conv state must be bitwise equal to the same graph launched serially. A kernel
// that touched the shared workspace, the adapters' copies or the baseline's intermediates before
// its wait would race with the previous layer and differ.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu_test_support.h"
#include "layoutcheck/gdn/random_problem.h"
#include "layoutcheck/gdn/standard_layouts.h"
#include "layoutcheck/gpu/gdn_device_layer.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/gpu/gdn_paths.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck {
namespace {

using gpu::GdnPath;
using gpu::GdnPathLauncher;
using gpu::GdnPathOptions;
using kernels::LaunchOrder;

constexpr int kLayers = 6;
constexpr int kReplays = 3;

// Each layer's own random inputs.
std::vector<GdnStepInputs> layer_inputs(const GdnShape& shape, std::int64_t batch,
                                        StateOrder order) {
  const GdnLayouts layouts = flat_gdn_layouts(shape, order);
  std::vector<GdnStepInputs> inputs;
  for (int i = 0; i < kLayers; ++i)
    inputs.push_back(
        make_random_step_inputs(shape, layouts, batch, 500 + static_cast<std::uint64_t>(i)));
  return inputs;
}

// Every layer's outputs after kReplays replays of one graph of all layers.
std::vector<GdnStepOutputs> run_layers(GdnPath path, GdnPathOptions options,
                                       const std::vector<GdnStepInputs>& inputs,
                                       LaunchOrder launch) {
  options.launch = launch;
  const GdnShape& shape = inputs.front().shape;
  const std::int64_t batch = inputs.front().batch;
  std::vector<std::unique_ptr<gpu::GdnDeviceLayer>> layers;
  for (const GdnStepInputs& layer : inputs)
    layers.push_back(std::make_unique<gpu::GdnDeviceLayer>(layer));
  const GdnPathLauncher launcher(path, options);
  const auto workspace = launcher.make_workspace(shape, batch);
  LC_GPU_CHECK(hipDeviceSynchronize());  // uploads and counter memsets are done
  const gpu::Stream stream(gpu::Stream::Kind::non_blocking);
  {
    const gpu::Graph graph(stream, [&](hipStream_t s) {
      for (auto& layer : layers) launcher.enqueue(*layer, *workspace, s);
    });
    for (int replay = 0; replay < kReplays; ++replay) graph.launch(stream);
    stream.synchronize();
  }
  std::vector<GdnStepOutputs> outputs;
  for (const auto& layer : layers) outputs.push_back(layer->download());
  return outputs;
}

// Bitwise, so that a NaN the negative control may produce compares equal to itself.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

void expect_same_as_serial(GdnPath path, const GdnPathOptions& options,
                           const std::vector<GdnStepInputs>& inputs) {
  const std::vector<GdnStepOutputs> serial =
      run_layers(path, options, inputs, LaunchOrder::serial);
  const std::vector<GdnStepOutputs> overlapped =
      run_layers(path, options, inputs, LaunchOrder::overlapped);
  for (int i = 0; i < kLayers; ++i) {
    SCOPED_TRACE("layer " + std::to_string(i));
    EXPECT_TRUE(same_bits(overlapped[i].out, serial[i].out)) << "output differs";
    EXPECT_TRUE(same_bits(overlapped[i].state, serial[i].state)) << "state differs";
    EXPECT_TRUE(same_bits(overlapped[i].conv_state, serial[i].conv_state))
        << "conv state differs";
  }
}

#define LC_REQUIRE_OVERLAPPED_LAUNCHES()                                                   \
  do {                                                                                     \
    LC_REQUIRE_GPU();                                                                      \
    if (!gpu::current_device().overlapped_launches)                                        \
      GTEST_SKIP() << gpu::current_device().name                                           \
                   << " has no overlapped launches (programmatic dependent launch): every " \
                      "launch there is serial";                                            \
  } while (false)

// Every path with the split it chooses, at batches whose blocks leave multiprocessors idle, fill
// them, and take several waves; the target shape and an odd one (the generic kernels).
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

// Every split of the fused and recurrent kernels, both state layouts.
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

}  // namespace
}  // namespace layoutcheck
