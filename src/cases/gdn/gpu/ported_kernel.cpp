#include "cases/gdn/gpu/ported_kernel.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "kernels/gdn/gdn_kernels.h"

namespace layoutcheck::gpu {

RtcSource ported_kernel_source(const RunManifest& manifest) {
  return rtc_source_file(manifest.file, manifest.source, manifest.entry, manifest.compile_options);
}

namespace {

unsigned positive_dimension(const Expression& expression, const SymbolTable& symbols,
                            const std::string& what, std::int64_t limit) {
  const std::int64_t value = expression.evaluate(symbols);
  if (value <= 0 || value > limit)
    throw InputError(Diagnostic{expression.where(), Severity::error, "launch",
                                what + " '" + expression.text() + "' evaluates to " +
                                    std::to_string(value) + ", outside 1.." + std::to_string(limit),
                                ""});
  return static_cast<unsigned>(value);
}

}  // namespace

PortedKernel::PortedKernel(const RunManifest& manifest, SymbolTable symbols, bool guard_zones)
    : manifest_(manifest),
      symbols_(std::move(symbols)),
      module_(RtcModule::compile(ported_kernel_source(manifest))),
      guard_zones_(guard_zones) {}

PortedKernel::Geometry PortedKernel::geometry(const GdnShape& shape, std::int64_t batch) const {
  SymbolTable symbols = symbols_;
  symbols["H"] = shape.H;
  symbols["HV"] = shape.HV;
  symbols["K"] = shape.K;
  symbols["V"] = shape.V;
  symbols["W"] = shape.W;
  symbols["G"] = shape.G();
  symbols["batch"] = batch;
  Geometry geometry;
  unsigned* grid[] = {&geometry.grid.x, &geometry.grid.y, &geometry.grid.z};
  unsigned* block[] = {&geometry.block.x, &geometry.block.y, &geometry.block.z};
  for (std::size_t i = 0; i < manifest_.grid.size(); ++i)
    *grid[i] = positive_dimension(manifest_.grid[i], symbols, "grid dimension",
                                  i == 0 ? 2147483647 : 65535);
  for (std::size_t i = 0; i < manifest_.block.size(); ++i)
    *block[i] = positive_dimension(manifest_.block[i], symbols, "block dimension", 1024);
  const std::int64_t shared = manifest_.shared_bytes.evaluate(symbols);
  if (shared < 0 || shared > (1 << 30))
    throw InputError(Diagnostic{manifest_.shared_bytes.where(), Severity::error, "launch",
                                "shared_bytes evaluates to " + std::to_string(shared), ""});
  geometry.shared_bytes = static_cast<unsigned>(shared);
  return geometry;
}

void PortedKernel::run(const GdnStepInputs& inputs) {
  const Geometry launch = geometry(inputs.shape, inputs.batch);
  if (layer_ && layer_->fits(inputs)) {
    layer_->upload(inputs);
  } else {
    layer_ = std::make_unique<GdnDeviceLayer>(inputs, guard_zones_ ? kGuardBytes : 0);
    const GdnShape& s = inputs.shape;
    sync_counters_ = DeviceBuffer<int>(
        static_cast<std::size_t>(kernels::gdn_sync_counters(inputs.batch, s.H, s.HV)));
    workspace_ = DeviceBuffer<float>(
        static_cast<std::size_t>(kernels::gdn_workspace_floats(inputs.batch, s.H, s.HV, s.K, s.V)));
  }
  // The ABI promises zero counters at every launch, whatever the previous launch left behind.
  sync_counters_.fill_bytes(0);
  workspace_.fill_bytes(0xFF);
  layer_->poison_output();
  GdnDecodeArgs args = layer_->args();
  args.sync_counters = sync_counters_.data();
  args.sync_counter_count = static_cast<long long>(sync_counters_.size());
  args.workspace = workspace_.data();
  args.workspace_floats = static_cast<long long>(workspace_.size());
  void* params[] = {&args};
  module_.launch(manifest_.entry, launch.grid, launch.block, launch.shared_bytes, stream_.get(),
                 params);
  stream_.synchronize();
  const auto seen = [this](const std::string& kind, const std::string& buffer) {
    return std::any_of(findings_.begin(), findings_.end(), [&](const ProbeFinding& finding) {
      return finding.kind == kind && finding.buffer == buffer;
    });
  };
  for (auto& guard : layer_->guard_findings())  // not a structured binding: clang 15 (hipcc)
    if (!seen("out-of-bounds", guard.first))
      findings_.push_back({"out-of-bounds", guard.first, std::move(guard.second)});
  if (!seen("sync-counters", "sync_counters") && sync_counters_.size() > 0) {
    const std::vector<int> counters = sync_counters_.to_host();
    const auto left = std::count_if(counters.begin(), counters.end(), [](int c) { return c != 0; });
    if (left > 0) {
      const auto first =
          std::find_if(counters.begin(), counters.end(), [](int c) { return c != 0; });
      findings_.push_back({"sync-counters", "sync_counters",
                           std::to_string(left) + " of the " + std::to_string(counters.size()) +
                               " sync counters are not zero after the launch (the ABI asks every "
                               "kernel to leave them zero), the first at index " +
                               std::to_string(first - counters.begin()) + " holding " +
                               std::to_string(*first)});
    }
  }
}

GdnStepOutputs PortedKernel::step(const GdnStepInputs& inputs) {
  run(inputs);
  return layer_->download();
}

void PortedKernel::step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) {
  run(inputs);
  layer_->download_into(outputs);
}

}  // namespace layoutcheck::gpu
