// layoutcheck gate --case NAME [--only TEXT] [--call KEY=VALUE]... [--json] [--out FILE]:
// a case's merge gates (layoutcheck/cases/gate_report.h). The host half runs anywhere; on a GPU
// build with a device the case's device half runs the kernels and replaces the host half's
// "not run" placeholders. With --call, one call alone: one the kernels do not take is an input
// error, refused before anything is launched.
// Exit 0 every check passed, 1 a check failed, 2 usage or input error (an illegal --call),
// 3 incomplete: nothing failed but some checks could not run (no GPU), so nothing is verified.
#include <iostream>

#include "commands.h"
#include "common.h"
#include "layoutcheck/cases/gate_report.h"
#include "layoutcheck/report/gate_report_render.h"
#if defined(LAYOUTCHECK_HAVE_GPU)
#include "layoutcheck/gpu/device.h"
#endif

namespace layoutcheck::cli {
namespace {

struct GateCommandOptions {
  std::string case_name;
  GateRequest request;
  bool json = false;
  std::string out;
};

// The device the checks can run on, or why there is none.
std::string device_or_reason(bool& available) {
#if defined(LAYOUTCHECK_HAVE_GPU)
  available = gpu::gpu_available();
  if (available) {
    const gpu::DeviceInfo& device = gpu::current_device();
    return device.name + " (" + device.arch + ")";
  }
  return "none: " + gpu::gpu_unavailable_reason();
#else
  available = false;
  return "none: this build has no GPU backend (configure with -DLAYOUTCHECK_GPU_BACKEND=cuda or "
         "hip)";
#endif
}

int run_gate(GateCommandOptions& options) {
  const CaseGates* gates = CaseGateRegistry::instance().find(options.case_name);
  if (gates == nullptr) {
    std::string known;
    for (const std::string& name : CaseGateRegistry::instance().names())
      known += (known.empty() ? "" : ", ") + name;
    return report_input_error(options.json, "gate",
                              "case '" + options.case_name + "' has no gates (gated: " +
                                  (known.empty() ? "none" : known) + ")");
  }
  options.request.contracts_folder = contracts_folder().string();
  GateReport report;
  report.case_name = options.case_name;
  bool device = false;
  report.device = device_or_reason(device);
  if (!options.request.call.empty()) {
    report.selection = "one call,";
    for (const std::string& pair : options.request.call) report.selection += " " + pair;
  } else if (!options.request.only.empty()) {
    report.selection = "only the checks whose subject contains '" + options.request.only + "'";
  }
  report.checks = gates->host(options.request);
  if (!options.request.only.empty() && report.checks.empty()) {
    return report_input_error(options.json, "gate",
                              "no check's subject contains '" + options.request.only +
                                  "' (layoutcheck gate --case " + options.case_name +
                                  " without --only lists every check)");
  }
  if (device && gates->device)
    report.checks = merge_gate_checks(std::move(report.checks), gates->device(options.request));
  else if (!gates->device)
    report.device += "; this build has no device half for the case's gates";
  const std::string text =
      options.json ? gate_report_json(report).dump() + "\n" : render_gate_markdown(report);
  if (!options.out.empty()) write_output_file(options.out, text);
  std::cout << text;
  if (report.exit_code() != 0)
    std::cerr << "layoutcheck gate: " << report.verdict()
              << (report.selection.empty() ? "" : " (" + report.selection + ")") << " ("
              << report.count(GateOutcome::failed) << " failed, "
              << report.count(GateOutcome::not_run) << " not run)\n";
  return report.exit_code();
}

}  // namespace

Command setup_gate_command(CLI::App& parent) {
  auto options = std::make_shared<GateCommandOptions>();
  CLI::App* app = parent.add_subcommand(
      "gate",
      "Run a case's merge gates: its operators over valid, boundary and illegal inputs, its "
      "model gate and its end-to-end gate. Exit 0: every check passed, 1: a check failed, 2: "
      "usage or input error (an illegal --call), 3: incomplete (checks that need a GPU did not "
      "run)");
  app->add_option("--case", options->case_name, "The case whose gates run (pangu)")->required();
  app->add_option("--only", options->request.only,
                  "Only the checks whose subject contains this text (\"layernorm\", \"level 0\")");
  CLI::Option* only = app->get_option("--only");
  app->add_option("--call", options->request.call,
                  "One call checked alone, KEY=VALUE (repeatable); pangu: operator=, shape=B,N,C "
                  "or grid=Z,LAT,LON width=C [shifted=1] [batch=B], dtype=, map_dtype=, "
                  "map_entry=I:V, map_length=N")
      ->excludes(only);
  app->add_flag("--json", options->json, "Print JSON instead of Markdown");
  app->add_option("--out", options->out, "Also write the report to this file");
  return {app, [options] { return finish_standard_output(run_gate(*options)); },
          [options] { return options->json; }};
}

}  // namespace layoutcheck::cli
