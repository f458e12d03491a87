#include "cases/gdn/gpu/gdn_upstream_probe.h"

#include <string>

#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/gpu/gdn_gpu_runner.h"
#include "cases/gdn/probe/probe_sweep.h"

namespace layoutcheck::gpu {

void probe_upstream_direct(const GdnShape& shape, GateRecord& gates,
                           const BenchProgress& progress) {
  GdnGpuRunner runner(GdnPath::upstream_direct);
  ProbeGate probe{"GPU probe", 0, 0};
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba}) {
    const std::string name(gdn_buffer_name(buffer));
    ProbeTarget target{
        shape, buffer,
        buffer == GdnBuffer::qkvz ? flat_qkvz_contract(shape) : flat_ba_contract(shape),
        interleaved_gdn_layouts(shape)};
    ProbeOptions options;
    options.max_batch = 1024;          // probes per launch: one per batch row
    options.check_values = false;      // the gates already held it against the reference
    options.check_row_stride = false;  // the reference check at every batch covers the rows
    options.progress = [&](std::int64_t done, std::int64_t total) {
      if (progress)
        progress("upstream-direct: GPU probe of " + name + ", " + std::to_string(done) + " of " +
                 std::to_string(total) + " offsets");
    };
    const ProbeVerdict verdict = probe_gdn_runner(runner, target, options);
    probe.elements += verdict.reads.elements;
    probe.misread += verdict.reads.misread;
    if (!verdict.agrees_with_diff)
      gates.failures.push_back("GPU probe of " + name + " disagrees with the static diff: " +
                               std::to_string(verdict.reads.misread) + " misread, diff says " +
                               std::to_string(verdict.static_diff.misread));
  }
  gates.probe = probe;
}

}  // namespace layoutcheck::gpu
