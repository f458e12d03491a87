// layoutcheck run MANIFEST.yaml [--set N=V]... [--json] [--compile-only [--arch ARCH]]
//   version 1 (GDN's manifest): compiles a ported GDN decode kernel at run time, probes on the GPU
//     what it reads against the model's producer contracts and checks its numbers against the fp64
//     reference (cases/gdn/gpu/ported_run.h).
//   version 2 (any case, cases/port_manifest.h): validated on the CPU first, then the port is
//     compiled and probed on the GPU with the case's first decoder (probe/case_probe.h).
//   --compile-only: runtime compilation for ARCH without a GPU (NVRTC needs none); prints the
//     compiler log and, where the toolchain reports it, registers, shared memory and spills.
//   --sanitize: after the checks, one launch of the port under compute-sanitizer's memcheck and
//     racecheck (probe/compute_sanitizer.h): this program again, run with --launch-once.
// Exit 0 clean (or compiled), 1 findings, 2 input errors (bad manifest or contracts, a compile
// error — the compiler log is printed — or no GPU).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cases/gdn/run_manifest.h"
#include "commands.h"
#include "common.h"
#include "layoutcheck/cases/port_manifest.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/probe/compute_sanitizer.h"
#include "layoutcheck/probe/port_check.h"

#if defined(LAYOUTCHECK_HAVE_GPU)
#include "cases/gdn/gpu/ported_kernel.h"
#include "cases/gdn/gpu/ported_run.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/port_runner.h"
#include "layoutcheck/gpu/rtc.h"
#endif

namespace layoutcheck::cli {
namespace {

struct RunOptions {
  std::string manifest;
  std::vector<std::string> assignments;
  std::uint64_t seed = 1;
  bool json = false;
  bool compile_only = false;
  bool sanitize = false;
  bool launch_once = false;  // the child of --sanitize: one launch, nothing checked
  std::string arch;          // --arch; empty: the backend's default
};

[[maybe_unused]] constexpr const char* kNoBackend =
    "this layoutcheck was built without a GPU backend; rebuild with "
    "-DLAYOUTCHECK_GPU_BACKEND=hip or cuda";

#if defined(LAYOUTCHECK_HAVE_GPU)

constexpr int kSanitizerTimeoutSeconds = 600;
constexpr const char* kNotSanitized =
    "memory errors and races were looked for only through guard zones (writes past a buffer) and "
    "two launches agreeing; run --sanitize runs compute-sanitizer's memcheck and racecheck";

// --sanitize: memcheck and racecheck over one launch of the port, in a child process.
void sanitize(const RunOptions& options, std::vector<ProbeFinding>& findings,
              std::vector<std::string>& not_verified) {
#if defined(LC_GPU_VENDOR_AMD)
  (void)options;
  (void)findings;
  not_verified.push_back(
      "memcheck and racecheck: compute-sanitizer is NVIDIA's, and this build targets AMD GPUs");
#else
  const std::optional<std::string> sanitizer = find_compute_sanitizer();
  if (!sanitizer) {
    not_verified.push_back(
        "memcheck and racecheck: compute-sanitizer was not found (on PATH, in /usr/local/cuda/bin, "
        "or as LAYOUTCHECK_COMPUTE_SANITIZER)");
    return;
  }
  std::vector<std::string> command = {self_executable(), "run",    options.manifest,
                                      "--launch-once",   "--seed", std::to_string(options.seed)};
  for (const std::string& assignment : options.assignments)
    command.insert(command.end(), {"--set", assignment});
  std::vector<SanitizerRun> runs;
  for (const char* tool : {"memcheck", "racecheck"})
    runs.push_back(run_under_sanitizer(*sanitizer, tool, command, kSanitizerTimeoutSeconds));
  add_sanitizer_results(runs, findings, not_verified);
#endif
}

// The architecture --compile-only targets without --arch: a representative one of the backend.
std::string default_arch() {
#if defined(LC_GPU_VENDOR_AMD)
  return "gfx90a";
#else
  return "sm_90";
#endif
}

// The wave size of an architecture name: 64 on AMD gfx9 (GCN, CDNA), 32 on RDNA and NVIDIA.
std::int64_t wave_size_of(const std::string& arch) {
  return arch.rfind("gfx9", 0) == 0 ? 64 : 32;
}

// The option that makes the runtime compiler report registers, shared memory and spills.
std::string resource_usage_option() {
#if defined(LC_GPU_VENDOR_AMD)
  return "-Rpass-analysis=kernel-resource-usage";
#else
  return "--ptxas-options=-v";
#endif
}

int compile_only(gpu::RtcSource source, const std::string& arch,
                 const std::optional<PortManifest>& manifest) {
  gpu::RtcSource verbose = source;
  verbose.extra_options.push_back(resource_usage_option());
  gpu::RtcCode code;
  bool resources = true;
  try {
    code = gpu::rtc_compile(verbose, arch);
  } catch (const gpu::RtcError&) {
    // Some runtime compilers reject the option: compile again without it, and report the log of
    // that attempt if it fails too (the one that speaks of the source).
    resources = false;
    try {
      code = gpu::rtc_compile(source, arch);
    } catch (const gpu::RtcError& error) {
      std::cerr << "layoutcheck run: " << source.name << " does not compile for " << arch << ":\n"
                << error.log() << "\n";
      return kInputError;
    }
  }
  std::cout << source.name << ": compiled for " << arch << " (" << code.code.size()
            << " bytes of code)\n";
  if (!code.log.empty()) std::cout << code.log << "\n";
  if (!resources)
    std::cout << "(this runtime compiler does not report resource usage with "
              << resource_usage_option() << ")\n";
  if (manifest) {
    const LaunchGeometry launch =
        launch_geometry(*manifest, launch_symbols(manifest->claimed, 2, wave_size_of(arch)));
    std::cout << "launch for batch 2, wave_size " << wave_size_of(arch) << ": grid ["
              << launch.grid[0] << ", " << launch.grid[1] << ", " << launch.grid[2] << "], block ["
              << launch.block[0] << ", " << launch.block[1] << ", " << launch.block[2]
              << "], shared_bytes " << launch.shared_bytes << "\n";
  }
  return kClean;
}

int run_v1(const RunOptions& options) {
  const RunManifest manifest = load_run_manifest(options.manifest);
  if (options.compile_only)
    return compile_only(gpu::ported_kernel_source(manifest),
                        options.arch.empty() ? default_arch() : options.arch, std::nullopt);
  if (options.json) throw_usage_error("--json is not available for version-1 (GDN) manifests yet");
  gpu::PortedRunOptions run;
  run.overrides = load_options_from(options.assignments).overrides;
  run.seed = options.seed;
  try {
    if (options.launch_once) {
      gpu::launch_ported_kernel_once(manifest, run);
      return kClean;
    }
    gpu::PortedRunReport report = gpu::run_ported_kernel(manifest, run);
    if (options.sanitize) sanitize(options, report.findings, report.not_verified);
    std::cout << gpu::ported_run_text(report);
    if (!options.sanitize) std::cout << "note: " << kNotSanitized << "\n";
    return report.clean() ? kClean : kFindings;
  } catch (const gpu::RtcError& error) {
    return report_input_error(options.json, "run", manifest.source + " does not compile",
                              error.what());
  }
}

int run_v2(const RunOptions& options, const PortManifest& manifest) {
  if (options.compile_only)
    return compile_only(gpu::port_source(manifest),
                        options.arch.empty() ? default_arch() : options.arch, manifest);
  if (!gpu::gpu_available())
    return report_input_error(options.json, "run",
                              gpu::gpu_unavailable_reason() +
                                  " (--compile-only checks that the port compiles without one)");
  const std::shared_ptr<const Case> subject = CaseRegistry::instance().get(manifest.case_name);
  std::optional<gpu::PortRunner> runner;
  try {
    runner.emplace(manifest, /*guard_zones=*/!options.launch_once);
  } catch (const gpu::RtcError& error) {
    return report_input_error(options.json, "run", manifest.source + " does not compile",
                              error.what());
  }
  if (options.launch_once) {
    BufferSet buffers = subject->make_buffers(manifest.model_layouts, 2, options.seed);
    runner->run(buffers);
    return kClean;
  }
  CaseProbeRequest request;
  request.model = manifest.model_layouts;
  request.claimed = manifest.claimed;
  request.rows = 2;
  request.seed = options.seed;
  PortCheck check = check_port(*subject, *runner,
                               manifest.name.empty() ? manifest.entry : manifest.name, request);
  if (options.sanitize)
    sanitize(options, check.findings, check.not_verified);
  else
    check.notes.push_back(kNotSanitized);
  if (options.json)
    std::cout << port_check_json(check).dump() << "\n";
  else
    std::cout << port_check_text(check);
  return check.clean() ? kClean : kFindings;
}

#endif

int run_run(const RunOptions& options) {
  // The manifest first, on the CPU: a bad manifest is an input error on any build, GPU or not.
  PortManifestOptions load;
  load.load = load_options_from(options.assignments);
  load.contracts_folder = contracts_folder();
  const PortManifest manifest = load_port_manifest(options.manifest, load);
  if (manifest.version == 1)  // GDN's own format, read and its launch checked here too
    check_run_manifest_launch(load_run_manifest(options.manifest), load.load.overrides);
#if defined(LAYOUTCHECK_HAVE_GPU)
  return manifest.version == 1 ? run_v1(options) : run_v2(options, manifest);
#else
  return report_input_error(options.json, "run",
                            options.manifest + " is valid, but " + kNoBackend +
                                (options.compile_only ? " (--compile-only needs hipRTC or NVRTC)"
                                                      : " on a machine with a GPU"));
#endif
}

}  // namespace

Command setup_run_command(CLI::App& parent) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* app = parent.add_subcommand(
      "run",
      "Compile a ported kernel at run time from its manifest, probe what it reads on the GPU and "
      "check its values against the case's reference");
  app->add_option("manifest", options->manifest, "Manifest YAML of the ported kernel")->required();
  app->add_option("--seed", options->seed, "Seed of the random inputs (default 1)")
      ->check(unsigned_integer());
  CLI::Option* json =
      app->add_flag("--json", options->json, "Print the verdict as JSON (version-2 manifests)");
  app->add_flag("--compile-only", options->compile_only,
                "Only compile the kernel (no GPU needed): print the compiler log and resource "
                "usage; exit 0 when it compiles, 2 when not")
      ->excludes(json);
  app->add_option("--arch", options->arch,
                  "Architecture for --compile-only (default sm_90 with CUDA, gfx90a with HIP)");
  app->add_flag("--sanitize", options->sanitize,
                "Also launch the port once under compute-sanitizer's memcheck and racecheck "
                "(NVIDIA GPUs) and put what they report in the verdict");
  app->add_flag("--launch-once", options->launch_once,
                "Launch the port once on random inputs and check nothing (what --sanitize runs "
                "under compute-sanitizer)")
      ->group("");
  add_set_option(app, options->assignments);
  return {app, [options] { return run_run(*options); }, [options] { return options->json; }};
}

}  // namespace layoutcheck::cli
