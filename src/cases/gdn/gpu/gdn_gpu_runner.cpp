#include "cases/gdn/gpu/gdn_gpu_runner.h"

#include "layoutcheck/gpu/device.h"

namespace layoutcheck::gpu {

GdnGpuRunner::GdnGpuRunner(GdnPath path, GdnPathOptions options)
    : launcher_((current_device(), path), options) {}

std::string GdnGpuRunner::name() const {
  return "gpu:" + std::string(launcher_.name());
}

void GdnGpuRunner::run(const GdnStepInputs& inputs) {
  if (layer_ && layer_->fits(inputs)) {
    layer_->upload(inputs);
  } else {
    layer_ = std::make_unique<GdnDeviceLayer>(inputs);
    workspace_ = launcher_.make_workspace(inputs.shape, inputs.batch);
  }
  layer_->poison_output();
  launcher_.enqueue(*layer_, *workspace_, stream_.get(), kernels::LaunchOrder::serial);
  stream_.synchronize();
}

GdnStepOutputs GdnGpuRunner::step(const GdnStepInputs& inputs) {
  run(inputs);
  return layer_->download();
}

void GdnGpuRunner::step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) {
  run(inputs);
  layer_->download_into(outputs);
}

}  // namespace layoutcheck::gpu
