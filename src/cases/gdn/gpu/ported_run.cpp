#include "cases/gdn/gpu/ported_run.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>

#include "cases/gdn/gpu/ported_kernel.h"
#include "cases/gdn/probe/gdn_case_verdict.h"
#include "cases/gdn/probe/output_writes.h"
#include "cases/gdn/probe/probe_sweep.h"
#include "cases/gdn/probe/value_check.h"
#include "cases/gdn/random_problem.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/render/misread_text.h"

namespace layoutcheck::gpu {
namespace {

// Loads a contract with only the overrides naming symbols it declares (W lives in the conv
// contracts, not in qkvz; an override nobody declares is caught by the caller).
Contract load_with(const std::string& path, const PortedRunOptions& options,
                   std::vector<bool>& used) {
  const Contract declared = load_contract(path);
  LoadOptions load;
  for (std::size_t i = 0; i < options.overrides.size(); ++i) {
    const std::string& name = options.overrides[i].first;
    const auto symbol = std::find_if(declared.symbols.begin(), declared.symbols.end(),
                                     [&](const Symbol& s) { return s.name == name; });
    if (symbol != declared.symbols.end()) {
      load.overrides.push_back(options.overrides[i]);
      used[i] = true;
    }
  }
  return load_contract(path, load);
}

GdnLayouts load_layouts(const GdnContractPaths& paths, const PortedRunOptions& options,
                        std::vector<bool>& used) {
  return GdnLayouts{load_with(paths.qkvz, options, used), load_with(paths.ba, options, used),
                    load_with(paths.state, options, used)};
}

struct PortedLayouts {
  GdnLayouts consumes, model;
  GdnShape shape;
};

PortedLayouts load_ported_layouts(const RunManifest& manifest, const PortedRunOptions& options) {
  std::vector<bool> used(options.overrides.size(), false);
  PortedLayouts layouts{load_layouts(manifest.consumes, options, used),
                        load_layouts(manifest.model, options, used), GdnShape{}};
  GdnShape& shape = layouts.shape;
  shape = gdn_shape_from_symbols(layouts.model.qkvz);
  for (std::size_t i = 0; i < options.overrides.size(); ++i)
    if (options.overrides[i].first == "W") {
      shape.W = options.overrides[i].second;
      used[i] = true;
    }
  for (std::size_t i = 0; i < options.overrides.size(); ++i)
    if (!used[i])
      throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                  "--set " + options.overrides[i].first +
                                      ": no contract of the manifest declares this symbol",
                                  "the GDN symbols are H, HV, K, V and W"});
  if (shape.W < 2)
    throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                "W must be at least 2", ""});
  validate_gdn_layouts(layouts.consumes, shape);
  validate_gdn_layouts(layouts.model, shape);
  return layouts;
}

}  // namespace

bool PortedRunReport::layout_ok() const {
  for (const BufferFinding& finding : buffers)
    if (!(finding.probed.layout_ok() && finding.probed.agrees_with_diff)) return false;
  return true;
}

PortCheck PortedRunReport::port_check() const {
  PortCheck check;
  check.port = kernel;
  bool misrouted = false;
  for (const BufferFinding& finding : buffers)
    misrouted = misrouted || (finding.buffer == GdnBuffer::qkvz && !finding.probed.routing.empty());
  for (const BufferFinding& finding : buffers) {
    CaseVerdict verdict = gdn_case_verdict(finding.probed);
    // A state probe is decoded through the q and k of its value head's key head.
    if (misrouted && finding.buffer == GdnBuffer::state)
      verdict.side_effect_of = "value heads reading q and k of the wrong key head (qkvz)";
    check.buffers.push_back(std::move(verdict));
  }
  check.findings = findings;
  check.not_verified = not_verified;
  check.values_checked = true;
  check.values_ok = values.passed;
  char detail[160];
  std::snprintf(detail, sizeof detail,
                "wired into the model: output rel L2 %.2e, state rel L2 %.2e, conv state %s",
                values.out_relative_l2, values.state_relative_l2,
                values.conv_state_exact ? "bitwise equal" : "DIFFERS");
  check.values_detail = detail + (values.detail.empty() ? "" : "; " + values.detail);
  return check;
}

void launch_ported_kernel_once(const RunManifest& manifest, const PortedRunOptions& options) {
  const PortedLayouts layouts = load_ported_layouts(manifest, options);
  PortedKernel kernel(manifest, layouts.model.qkvz.symbol_table(), /*guard_zones=*/false);
  (void)kernel.step(make_random_step_inputs(layouts.shape, layouts.model, 2, options.seed));
}

PortedRunReport run_ported_kernel(const RunManifest& manifest, const PortedRunOptions& options) {
  const PortedLayouts layouts = load_ported_layouts(manifest, options);
  const GdnLayouts& consumes = layouts.consumes;
  const GdnLayouts& model = layouts.model;
  const GdnShape& shape = layouts.shape;
  SymbolTable symbols = model.qkvz.symbol_table();
  PortedKernel kernel(manifest, symbols);

  PortedRunReport report;
  report.kernel = manifest.entry;
  report.arch = current_device().arch;
  report.shape = shape;
  // Where the kernel writes out, first: the input probes read their answers there.
  const OutputWrites writes = find_output_writes(kernel, shape, model, options.seed + 3);
  std::unique_ptr<GdnRunner> reordered;
  GdnRunner* probed = &kernel;
  if (!writes.determined) {
    report.not_verified.push_back("where the kernel writes out: " + writes.detail);
  } else if (!writes.as_model()) {
    const std::string written = writes.notation(shape);
    report.findings.push_back(
        {"output-layout", "out",
         "out is written as " +
             (written.empty() ? "a permutation that no strides describe" : written) +
             ", the model reads it as (" + std::to_string(shape.HV) + "," +
             std::to_string(shape.V) + "):(" + std::to_string(shape.V) +
             ",1); the input probes below read the output where the kernel writes it"});
    reordered = read_output_as_written(kernel, writes);
    probed = reordered.get();
  }
  ProbeOptions probe;
  probe.max_batch = options.probe_batch;
  probe.seed = options.seed;
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state}) {
    BufferFinding finding;
    finding.buffer = buffer;
    finding.claimed = diff_contracts(layout_of(model, buffer), layout_of(consumes, buffer));
    probe.max_probes = buffer == GdnBuffer::state ? options.max_state_probes : options.max_probes;
    const ProbeTarget target{shape, buffer, layout_of(model, buffer), consumes};
    finding.probed = probe_gdn_runner(*probed, target, probe);
    report.buffers.push_back(std::move(finding));
  }
  // The row strides the ABI passes, honoured: where the model packs qkvz or ba rows, a sample of
  // their offsets probed again with the rows padded (probe/port_check.h). (The step inputs keep
  // the state as equal rows, problem.h: its stride is not padded.)
  for (const BufferFinding& finding : report.buffers) {
    const Contract& packed = layout_of(model, finding.buffer);
    if (finding.buffer == GdnBuffer::state || !finding.probed.layout_ok() ||
        row_stride(packed) != packed.row_size)
      continue;
    GdnLayouts padded_claim = consumes;
    layout_of(padded_claim, finding.buffer) = with_padded_rows(layout_of(consumes, finding.buffer));
    const Contract padded = with_padded_rows(packed);
    probe.max_probes = options.max_padded_pitch_probes;
    const ProbeVerdict verdict =
        probe_gdn_runner(*probed, ProbeTarget{shape, finding.buffer, padded, padded_claim}, probe);
    if (!verdict.layout_ok()) {
      const std::string name(gdn_buffer_name(finding.buffer));
      report.findings.push_back(
          {"row-pitch", name, row_pitch_message(name, row_stride(padded), verdict.conclusion())});
    }
  }
  ValueCheckOptions values;
  values.seed = options.seed;
  values.batch = 3;
  values.out_tolerance = 1e-2;
  report.values = check_values(kernel, shape, model, values);

  // Two launches on the same inputs write the same bits.
  const GdnStepInputs inputs = make_random_step_inputs(shape, model, 3, options.seed + 2);
  const GdnStepOutputs first = kernel.step(inputs), second = kernel.step(inputs);
  const auto differing = [](const auto& a, const auto& b) {
    std::int64_t count = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
      count += std::memcmp(&a[i], &b[i], sizeof a[i]) != 0;
    return count;
  };
  for (const auto& [name, count] :
       {std::pair<const char*, std::int64_t>{"out", differing(first.out, second.out)},
        {"state", differing(first.state, second.state)},
        {"conv_state", differing(first.conv_state, second.conv_state)}})
    if (count > 0)
      report.findings.push_back({"non-deterministic", name,
                                 std::to_string(count) + " elements of '" + name +
                                     "' differ between two launches on the same inputs"});
  // Every output element written: out holds all-ones bytes before each launch
  // (GdnDeviceLayer::poison_output), which no bf16 a kernel computes is.
  std::int64_t unwritten = 0;
  std::string first_offsets;
  for (std::size_t i = 0; i < first.out.size(); ++i)
    if (first.out[i] == 0xffff && unwritten++ < 4)
      first_offsets += (first_offsets.empty() ? "" : ", ") + std::to_string(i);
  if (unwritten > 0)
    report.findings.push_back({"unwritten", "out",
                               std::to_string(unwritten) +
                                   " elements of 'out' were never written "
                                   "(still the sentinel the buffer was filled with), the first at "
                                   "offsets " +
                                   first_offsets});
  for (ProbeFinding& finding : kernel.take_findings())
    report.findings.push_back(std::move(finding));
  return report;
}

std::string ported_run_text(const PortedRunReport& report) {
  std::ostringstream text;
  const GdnShape& s = report.shape;
  text << "kernel " << report.kernel << " compiled for " << report.arch << "; H=" << s.H
       << " HV=" << s.HV << " K=" << s.K << " V=" << s.V << " W=" << s.W << "\n";
  text << port_check_text(report.port_check());
  return text.str();
}

}  // namespace layoutcheck::gpu
