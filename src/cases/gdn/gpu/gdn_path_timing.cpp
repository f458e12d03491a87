#include "cases/gdn/gpu/gdn_path_timing.h"

#include <stdexcept>

#include "layoutcheck/gpu_bench/graph_timing.h"

namespace layoutcheck::gpu {

GdnLayerStack make_layer_stack(const GdnStepInputs& inputs, std::int64_t layers) {
  GdnLayerStack stack;
  for (std::int64_t layer = 0; layer < layers; ++layer)
    stack.push_back(std::make_unique<GdnDeviceLayer>(inputs));
  return stack;
}

GdnLayerStack make_layer_stack(const std::vector<GdnStepInputs>& layer_inputs) {
  GdnLayerStack stack;
  for (const GdnStepInputs& inputs : layer_inputs)
    stack.push_back(std::make_unique<GdnDeviceLayer>(inputs));
  return stack;
}

BatchTiming time_gdn_path(const GdnPathLauncher& launcher, GdnLayerStack& stack,
                          const TimingMethod& method, const Stream& stream) {
  if (stack.empty()) throw std::invalid_argument("path timing: no layers");
  GdnDeviceLayer& first = *stack.front();
  // One workspace for all layers, as a framework's allocator would reuse it layer after layer.
  const auto workspace = launcher.make_workspace(first.shape(), first.batch());
  const double layers = static_cast<double>(stack.size());

  BatchTiming timing;
  timing.batch = first.batch();
  {
    const Graph model(stream, [&](hipStream_t s) {
      for (auto& layer : stack) launcher.enqueue(*layer, *workspace, s);
    });
    timing.per_layer_us =
        time_graph_replays(model, stream, method.warmup_replays, method.replays, layers);
  }
  {
    // Serial whatever the method, with the splits chosen for serial launches: consecutive launches
    // here share one layer's state, and the figure stays comparable with a serial run's.
    GdnPathOptions serial_options = launcher.options();
    serial_options.launch = kernels::LaunchOrder::serial;
    const GdnPathLauncher serial(launcher.path(), serial_options);
    const Graph hot(stream, [&](hipStream_t s) {
      for (std::size_t i = 0; i < stack.size(); ++i) serial.enqueue(first, *workspace, s);
    });
    timing.hot_us =
        time_graph_replays(hot, stream, method.warmup_replays, method.hot_replays, layers);
  }
  timing.per_layer = summarize(timing.per_layer_us);
  timing.hot = summarize(timing.hot_us);
  return timing;
}

}  // namespace layoutcheck::gpu
