// `layoutcheck run`: a ported kernel checked the way a porting review needs it — what it claims
// (static diff of its contracts against the model's), what it actually reads (one-hot probes on the
// GPU against the model's producer contracts), and whether its numbers are right when wired into
// the model (random inputs laid out by the model, against the fp64 reference).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cases/gdn/layouts.h"
#include "cases/gdn/probe/verdict.h"
#include "cases/gdn/run_manifest.h"
#include "layoutcheck/diff/read_map.h"
#include "layoutcheck/probe/port_check.h"

namespace layoutcheck::gpu {

struct PortedRunOptions {
  // --set NAME=VALUE: applied to every contract that declares NAME; W sets the conv width.
  std::vector<std::pair<std::string, std::int64_t>> overrides;
  std::uint64_t seed = 1;
  // Offsets probed per buffer at most; a larger row (the state: 786432 offsets at 16/48/128/128)
  // is probed on a seeded random sample of this many, and the verdict says so.
  std::int64_t max_probes = 1 << 14;
  std::int64_t max_state_probes = 1 << 12;
  // Offsets probed again with padded rows, where the model packs them: a kernel computing its
  // own row pitch misreads every offset of every row but the first, so a sample finds it.
  std::int64_t max_padded_pitch_probes = 1 << 10;
  std::int64_t probe_batch = 64;  // probes per launch (one per batch row)
};

struct BufferFinding {
  GdnBuffer buffer = GdnBuffer::qkvz;
  MisreadReport claimed;  // static diff: model's contract vs the kernel's claim
  ProbeVerdict probed;    // every offset, or a sample the verdict names
};

struct PortedRunReport {
  std::string kernel;  // entry
  std::string arch;    // what it was compiled for
  GdnShape shape;
  std::vector<BufferFinding> buffers;  // qkvz, ba, state
  ValueCheck values;                   // wired into the model
  // The ABI's other promises: where out is written (probe/output_writes.h), counters,
  // determinism (two launches on the same inputs).
  std::vector<ProbeFinding> findings;
  std::vector<std::string> not_verified;  // checks that could not run, and why
  bool layout_ok() const;  // every probe clean, and every probe agrees with the claims
  bool clean() const { return port_check().clean(); }
  // "clean", "qkvz: layout misread: ...", "no layout misread, values differ ...", ...
  std::string conclusion() const { return port_check().conclusion(); }
  // The report in the toolkit's one port verdict (probe/port_check.h), as every case's `run`.
  PortCheck port_check() const;
};

// @post throws InputError (manifest, contracts), RtcError (compile error with the log), GpuError.
PortedRunReport run_ported_kernel(const RunManifest& manifest, const PortedRunOptions& options);

// One launch on random inputs laid out by the model, nothing checked: what `run --sanitize` runs
// under compute-sanitizer. @post throws as run_ported_kernel.
void launch_ported_kernel_once(const RunManifest& manifest, const PortedRunOptions& options);

// The report as text for a terminal or a pull request.
std::string ported_run_text(const PortedRunReport& report);

}  // namespace layoutcheck::gpu
