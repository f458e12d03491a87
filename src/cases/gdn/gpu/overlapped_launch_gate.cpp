#include "cases/gdn/gpu/overlapped_launch_gate.h"

#include <memory>
#include <stdexcept>

#include "cases/gdn/bench/gdn_gates.h"
#include "layoutcheck/gpu/check.h"
#include "cases/gdn/gpu/gdn_device_layer.h"
#include "layoutcheck/gpu/stream.h"
#include "cases/gdn/gpu/gdn_path_timing.h"

namespace layoutcheck::gpu {

namespace {

// Every layer's outputs after `replays` replays of one graph of all layers.
std::vector<GdnStepOutputs> run_layers(const GdnPathLauncher& launcher,
                                       const std::vector<GdnStepInputs>& layer_inputs,
                                       kernels::LaunchOrder launch, int replays) {
  GdnLayerStack layers = make_layer_stack(layer_inputs);
  const auto workspace =
      launcher.make_workspace(layer_inputs.front().shape, layer_inputs.front().batch);
  LC_GPU_CHECK(hipDeviceSynchronize());  // uploads and counter memsets are done
  const Stream stream(Stream::Kind::non_blocking);
  {
    const Graph graph(stream, [&](hipStream_t s) {
      for (auto& layer : layers) launcher.enqueue(*layer, *workspace, s, launch);
    });
    for (int replay = 0; replay < replays; ++replay) graph.launch(stream);
    stream.synchronize();
  }
  std::vector<GdnStepOutputs> outputs;
  for (const auto& layer : layers) outputs.push_back(layer->download());
  return outputs;
}

}  // namespace

BitwiseCheck check_overlapped_launches(GdnPath path, GdnPathOptions options,
                                       const std::vector<GdnStepInputs>& layer_inputs,
                                       int replays) {
  if (layer_inputs.empty() || replays <= 0)
    throw std::invalid_argument("overlapped-launch gate: no layer or no replay");
  options.launch = kernels::LaunchOrder::overlapped;  // the splits an overlapped graph runs
  const GdnPathLauncher launcher(path, options);
  const std::vector<GdnStepOutputs> serial =
      run_layers(launcher, layer_inputs, kernels::LaunchOrder::serial, replays);
  const std::vector<GdnStepOutputs> overlapped =
      run_layers(launcher, layer_inputs, kernels::LaunchOrder::overlapped, replays);
  BitwiseCheck check{
      "out, state and conv state of " + std::to_string(layer_inputs.size()) + " layers", 0, 0};
  for (std::size_t i = 0; i < serial.size(); ++i)
    add_bitwise_differences(serial[i], overlapped[i], check);
  return check;
}

}  // namespace layoutcheck::gpu
