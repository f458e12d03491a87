// A ported kernel of any case, compiled at run time from its version-2 manifest
// (cases/port_manifest.h) and run behind the CaseRunner interface, so the generic probes
// (probe/case_probe.h) treat it like the case's reference. Each run uploads the BufferSet, poisons
// the written buffers, packs the kernel's one by-value argument through the ABI's binding
// (gpu/abi_binding.h), launches with the manifest's geometry for the run's symbols (the claimed
// contracts' symbols, batch = rows of the case's default probe buffer, wave_size of the device),
// synchronises and downloads the written buffers. Every runtime call is checked.
#pragma once

#include <memory>
#include <string>

#include "layoutcheck/cases/case.h"
#include "layoutcheck/cases/port_manifest.h"
#include "layoutcheck/gpu/abi_binding.h"
#include "layoutcheck/gpu/rtc.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {

// The manifest's source as runtime compilation takes it (its folder on the include path).
// @post throws InputError when the source cannot be read.
RtcSource port_source(const PortManifest& manifest);

class PortRunner : public CaseRunner {
 public:
  // @pre manifest.version == 2 (load_port_manifest validated it).
  // @post throws InputError (unknown case, no binding for the ABI, unreadable source), RtcError
  //       with the compiler log, GpuError without a GPU.
  // guard_zones false: buffers of exactly their size (a launch under memcheck).
  explicit PortRunner(const PortManifest& manifest, bool guard_zones = true);

  std::string name() const override { return "port:" + manifest_.entry; }
  void run(BufferSet& buffers) override;
  // Writes past a buffer's end seen since the last call (each buffer once).
  std::vector<ProbeFinding> take_findings() override;
  const std::string& compiler_log() const { return module_.compiler_log(); }

 private:
  PortManifest manifest_;
  std::shared_ptr<const Case> subject_;
  AbiBinding binding_;
  RtcModule module_;
  Stream stream_;
  DeviceBufferSet device_;
  std::vector<ProbeFinding> findings_;
};

}  // namespace layoutcheck::gpu
