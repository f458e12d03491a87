// A GDN decode path on the GPU behind the GdnRunner interface: the probe engine, the tests and
// the gates treat it as a black box taking host buffers and returning host buffers.
#pragma once

#include <memory>
#include <string>

#include "cases/gdn/problem.h"
#include "cases/gdn/gpu/gdn_paths.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

class GdnGpuRunner : public GdnRunner {
 public:
  // @post throws GpuError ("no GPU: ...") when no GPU can be used.
  explicit GdnGpuRunner(GdnPath path, GdnPathOptions options = {});

  std::string name() const override;  // "gpu:native"
  // Uploads the inputs, poisons the output, runs one step, downloads. Device buffers are kept
  // between calls of the same size (probes call this many times). Launches serially, with the
  // splits chosen for the options' launch order.
  GdnStepOutputs step(const GdnStepInputs& inputs) override;
  void step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) override;
  std::int64_t preferred_probe_batch(const GdnShape& shape) const override {
    return gpu_probe_batch(shape);
  }

  const GdnPathLauncher& launcher() const { return launcher_; }

 private:
  void run(const GdnStepInputs& inputs);  // leaves the step's results on the device

  GdnPathLauncher launcher_;
  Stream stream_;
  std::unique_ptr<GdnDeviceLayer> layer_;
  std::unique_ptr<GdnPathWorkspace> workspace_;
};

}  // namespace layoutcheck::gpu
