#include "layoutcheck/gpu/port_runner.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "layoutcheck/cases/registry.h"
#include "layoutcheck/gpu/device.h"

namespace layoutcheck::gpu {

RtcSource port_source(const PortManifest& manifest) {
  return rtc_source_file(manifest.file, manifest.source, manifest.entry, manifest.compile_options);
}

PortRunner::PortRunner(const PortManifest& manifest, bool guard_zones)
    : manifest_(manifest),
      subject_(CaseRegistry::instance().get(manifest.case_name)),
      binding_(AbiBindingRegistry::instance().get(manifest.abi)),
      module_(RtcModule::compile(port_source(manifest))),
      device_(guard_zones ? kGuardBytes : 0) {}

void PortRunner::run(BufferSet& buffers) {
  const SymbolTable symbols =
      launch_symbols(manifest_.claimed, buffers.at(subject_->default_probe_buffer()).rows,
                     current_device().wave_size);
  const LaunchGeometry launch = launch_geometry(manifest_, symbols);
  device_.upload(buffers);
  // Written buffers start as all-ones bytes (NaN in bf16 and fp32): an element the kernel does
  // not write shows as a wrong value instead of a lucky zero.
  const std::vector<BufferSpec> specs = subject_->buffers();
  for (const BufferSpec& spec : specs)
    if (spec.role == BufferRole::output) device_.fill_bytes(spec.name, 0xFF);
  std::vector<std::uint8_t> argument = binding_.pack(device_, buffers, symbols);
  void* params[] = {argument.data()};
  const auto dim = [](const std::array<std::int64_t, 3>& d) {
    return dim3(static_cast<unsigned>(d[0]), static_cast<unsigned>(d[1]),
                static_cast<unsigned>(d[2]));
  };
  module_.launch(manifest_.entry, dim(launch.grid), dim(launch.block),
                 static_cast<unsigned>(launch.shared_bytes), stream_.get(), params);
  stream_.synchronize();
  for (const BufferSpec& spec : specs)
    if (spec.writes()) device_.download(buffers, spec.name);
  for (auto& guard : device_.guard_findings())  // not a structured binding: clang 15 (hipcc)
    if (std::none_of(findings_.begin(), findings_.end(),
                     [&](const ProbeFinding& seen) { return seen.buffer == guard.first; }))
      findings_.push_back({"out-of-bounds", guard.first, std::move(guard.second)});
}

std::vector<ProbeFinding> PortRunner::take_findings() {
  return std::exchange(findings_, {});
}

}  // namespace layoutcheck::gpu
