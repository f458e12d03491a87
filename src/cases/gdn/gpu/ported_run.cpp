#include "cases/gdn/gpu/ported_run.h"

#include <algorithm>
#include <sstream>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/gpu/device.h"
#include "cases/gdn/gpu/ported_kernel.h"
#include "cases/gdn/probe/probe_sweep.h"
#include "cases/gdn/probe/value_check.h"
#include "layoutcheck/render/report_text.h"

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

}  // namespace

bool PortedRunReport::layout_ok() const {
  for (const BufferFinding& finding : buffers)
    if (finding.probed && !(finding.probed->layout_ok() && finding.probed->agrees_with_diff))
      return false;
  return true;
}

std::string PortedRunReport::conclusion() const {
  std::int64_t misread = 0, unresolved = 0;
  bool routing = false, rows = false, disagrees = false;
  for (const BufferFinding& finding : buffers) {
    if (!finding.probed) continue;
    misread += finding.probed->reads.misread;
    unresolved += finding.probed->reads.unresolved + finding.probed->unresolved_probes;
    routing = routing || !finding.probed->routing.empty();
    rows = rows || !finding.probed->row_stride.empty();
    disagrees = disagrees || !finding.probed->agrees_with_diff;
  }
  std::vector<std::string> parts;
  if (misread > 0) parts.push_back("layout misread: " + std::to_string(misread) + " elements");
  if (unresolved > 0) parts.push_back(std::to_string(unresolved) + " unresolved");
  if (routing) parts.push_back("value heads routed to the wrong key head");
  if (rows) parts.push_back("wrong row stride between batch rows");
  if (disagrees && misread == 0 && unresolved == 0)
    parts.push_back("reads differ from what the kernel claims");
  if (parts.empty()) return values.passed ? "clean" : "no layout misread, values differ";
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  if (!values.passed) text += "; values differ";
  return text;
}

PortedRunReport run_ported_kernel(const RunManifest& manifest, const PortedRunOptions& options) {
  std::vector<bool> used(options.overrides.size(), false);
  const GdnLayouts consumes = load_layouts(manifest.consumes, options, used);
  const GdnLayouts model = load_layouts(manifest.model, options, used);
  GdnShape shape = gdn_shape_from_symbols(model.qkvz);
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
  validate_gdn_layouts(consumes, shape);
  validate_gdn_layouts(model, shape);

  SymbolTable symbols = model.qkvz.symbol_table();
  PortedKernel kernel(manifest, symbols);

  PortedRunReport report;
  report.kernel = manifest.entry;
  report.arch = current_device().arch;
  report.shape = shape;
  ProbeOptions probe;
  probe.max_batch = options.probe_batch;
  probe.seed = options.seed;
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state}) {
    BufferFinding finding;
    finding.buffer = buffer;
    finding.claimed = diff_contracts(layout_of(model, buffer), layout_of(consumes, buffer));
    const std::int64_t probes = layout_of(model, buffer).row_size;
    if (buffer == GdnBuffer::state && probes > options.max_state_probes) {
      finding.not_probed_reason = std::to_string(probes) +
                                  " elements per row; probe it at smaller sizes with --set "
                                  "(the value check covers it here)";
    } else {
      const ProbeTarget target{shape, buffer, layout_of(model, buffer), consumes};
      finding.probed = probe_gdn_runner(kernel, target, probe);
    }
    report.buffers.push_back(std::move(finding));
  }
  ValueCheckOptions values;
  values.seed = options.seed;
  values.batch = 3;
  values.out_tolerance = 1e-2;
  report.values = check_values(kernel, shape, model, values);
  return report;
}

std::string ported_run_text(const PortedRunReport& report) {
  std::ostringstream text;
  const GdnShape& s = report.shape;
  text << "kernel " << report.kernel << " compiled for " << report.arch << "; H=" << s.H
       << " HV=" << s.HV << " K=" << s.K << " V=" << s.V << " W=" << s.W << "\n";
  for (const BufferFinding& finding : report.buffers) {
    const std::string name(gdn_buffer_name(finding.buffer));
    text << "\n"
         << name
         << ": claimed (static diff, model vs kernel's contract): " << finding.claimed.misread
         << " of " << finding.claimed.elements << " misread\n";
    if (!finding.probed) {
      text << "  not probed: " << finding.not_probed_reason << "\n";
      continue;
    }
    const ProbeVerdict& verdict = *finding.probed;
    text << "  probed on the GPU: " << verdict.probed << " offsets, " << verdict.reads.misread
         << " elements misread, " << verdict.reads.unresolved + verdict.unresolved_probes
         << " unresolved; " << (verdict.agrees_with_diff ? "agrees" : "DISAGREES")
         << " with the claim\n";
    if (verdict.reads.misread > 0) {
      std::istringstream lines(report_to_text(verdict.reads));
      for (std::string line; std::getline(lines, line);) text << "    " << line << "\n";
    }
    for (const RoutingFinding& routing : verdict.routing) {
      text << "  value head " << routing.value_head << " should read key head "
           << routing.expected_key_head << ", reads";
      for (std::int64_t head : routing.key_heads_read) text << " " << head;
      text << "\n";
    }
    for (const RowStrideFinding& row : verdict.row_stride)
      text << "  batch row " << row.row << " offset " << row.offset << ": row 0 reads "
           << row.in_row_zero << ", this row " << row.here
           << (row.kernel_row_stride
                   ? " (kernel row stride " + std::to_string(*row.kernel_row_stride) + ")"
                   : "")
           << "\n";
    for (std::size_t i = 0; i < verdict.unresolved_details.size() && i < 5; ++i)
      text << "  " << verdict.unresolved_details[i] << "\n";
  }
  text << "\nvalues wired into the model (random inputs, fp64 reference): output rel L2 "
       << report.values.out_relative_l2 << ", state rel L2 " << report.values.state_relative_l2
       << ", conv state " << (report.values.conv_state_exact ? "bitwise equal" : "DIFFERS")
       << (report.values.passed ? "" : " -> FAIL") << "\n";
  if (!report.values.detail.empty()) text << "  " << report.values.detail << "\n";
  text << "\nverdict: " << report.conclusion() << "\n";
  return text.str();
}

}  // namespace layoutcheck::gpu
