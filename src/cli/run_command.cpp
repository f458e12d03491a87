// layoutcheck run MANIFEST.yaml [--set N=V]... : compiles a ported GDN decode kernel at run time,
// probes on the GPU what it reads against the producer contracts of the model it is wired into,
// and checks its numbers against the fp64 reference. Exit 0 clean, 1 findings, 2 input errors
// (bad manifest or contracts, a compile error — the compiler log is printed — or no GPU).
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"

#if defined(LAYOUTCHECK_HAVE_GPU)
#include "cases/gdn/gpu/ported_run.h"
#include "layoutcheck/gpu/rtc.h"
#endif

namespace layoutcheck::cli {
namespace {

struct RunOptions {
  std::string manifest;
  std::vector<std::string> assignments;
  std::uint64_t seed = 1;
};

int run_run(const RunOptions& options) {
#if defined(LAYOUTCHECK_HAVE_GPU)
  gpu::PortedRunOptions run;
  run.overrides = load_options_from(options.assignments).overrides;
  run.seed = options.seed;
  const gpu::RunManifest manifest = gpu::load_run_manifest(options.manifest);
  try {
    const gpu::PortedRunReport report = gpu::run_ported_kernel(manifest, run);
    std::cout << gpu::ported_run_text(report);
    return report.clean() ? kClean : kFindings;
  } catch (const gpu::RtcError& error) {
    std::cerr << "layoutcheck run: " << manifest.source << " does not compile:\n"
              << error.what() << "\n";
    return kInputError;
  }
#else
  (void)options;
  std::cerr << "layoutcheck run: this layoutcheck was built without a GPU backend; rebuild with "
               "-DLAYOUTCHECK_GPU_BACKEND=hip or cuda on a machine with a GPU\n";
  return kInputError;
#endif
}

}  // namespace

Command setup_run_command(CLI::App& parent) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* app = parent.add_subcommand(
      "run",
      "Compile a ported GDN decode kernel at run time, probe what it reads on the GPU and "
      "check its values against the fp64 reference");
  app->add_option("manifest", options->manifest, "Manifest YAML of the ported kernel")->required();
  app->add_option("--seed", options->seed, "Seed of the random inputs (default 1)");
  add_set_option(app, options->assignments);
  return {app, [options] { return run_run(*options); }};
}

}  // namespace layoutcheck::cli
