// A ported GDN decode kernel compiled at run time from its manifest (run_manifest.h) and run behind
// the GdnRunner interface, so the probes and the value checks treat it like any other kernel.
// It receives one GdnDecodeArgs by value (kernels/gdn/gdn_abi.h, kernels/gdn/ABI.md) and the launch
// geometry its manifest gives, evaluated for each call's sizes and batch.
#pragma once

#include <memory>
#include <string>

#include "cases/gdn/gpu/gdn_device_layer.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/run_manifest.h"
#include "layoutcheck/cases/case.h"  // ProbeFinding
#include "layoutcheck/contract/expression.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/rtc.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// The manifest's source as runtime compilation takes it (its folder on the include path).
// @post throws InputError when the source cannot be read.
RtcSource ported_kernel_source(const RunManifest& manifest);

class PortedKernel : public GdnRunner {
 public:
  // Compiles the manifest's source for the current GPU. symbols: the values the launch
  // expressions may use besides the shape's (H, HV, K, V, W, G) and batch.
  // @post throws RtcError with the compiler log when the source does not compile, InputError
  //       when it cannot be read, GpuError without a GPU.
  // guard_zones false: buffers of exactly their size (a launch under memcheck).
  PortedKernel(const RunManifest& manifest, SymbolTable symbols = {}, bool guard_zones = true);

  std::string name() const override { return "ported:" + manifest_.entry; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override;
  void step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) override;
  std::int64_t preferred_probe_batch(const GdnShape& shape) const override {
    return gpu_probe_batch(shape);
  }

  const std::string& compiler_log() const { return module_.compiler_log(); }

  // What the launches broke of the ABI's promises since the last call, each kind once: sync
  // counters left non-zero, bytes written past a buffer's end (its guard zone). (The workspace
  // is filled with garbage, all-ones bytes, before every launch: its contents are undefined, and
  // a kernel relying on zeros there shows as wrong values.)
  std::vector<ProbeFinding> take_findings() { return std::exchange(findings_, {}); }

  // The launch geometry for these sizes; throws InputError naming the manifest when an expression
  // cannot be evaluated or a dimension is not positive.
  struct Geometry {
    dim3 grid, block;
    unsigned shared_bytes = 0;
  };
  Geometry geometry(const GdnShape& shape, std::int64_t batch) const;

 private:
  void run(const GdnStepInputs& inputs);  // leaves the step's results on the device

  RunManifest manifest_;
  SymbolTable symbols_;
  RtcModule module_;
  Stream stream_;
  std::unique_ptr<GdnDeviceLayer> layer_;
  DeviceBuffer<int> sync_counters_;
  DeviceBuffer<float> workspace_;
  bool guard_zones_;
  std::vector<ProbeFinding> findings_;
};

}  // namespace layoutcheck::gpu
