// Times one GDN path at one batch the production way (design §8): one graph holding every layer,
// each layer with its own state and conv buffers, the adapters in the same graph as the kernel
// they feed; per-layer time = replay time ÷ layers. Also the hot figure (always launched serially,
// with the splits serial launches choose): one layer's buffers
// launched `layers` times in one graph, so they stay cache-resident where they fit.
#pragma once

#include <memory>
#include <vector>

#include "layoutcheck/bench/result.h"
#include "cases/gdn/gpu/gdn_device_layer.h"
#include "cases/gdn/gpu/gdn_paths.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

using GdnLayerStack = std::vector<std::unique_ptr<GdnDeviceLayer>>;

// `layers` device layers, each uploaded from `inputs` (the same values, separate buffers).
GdnLayerStack make_layer_stack(const GdnStepInputs& inputs, std::int64_t layers);
// One device layer uploaded from each of `layer_inputs`.
GdnLayerStack make_layer_stack(const std::vector<GdnStepInputs>& layer_inputs);

// @pre stack not empty, every layer of the same shape and batch.
BatchTiming time_gdn_path(const GdnPathLauncher& launcher, GdnLayerStack& stack,
                          const TimingMethod& method, const Stream& stream);

}  // namespace layoutcheck::gpu
