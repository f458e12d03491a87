// layoutcheck probe [--case NAME] --producer P.yaml --consumer C.yaml: what a kernel built for C's
// layout really reads when fed buffers laid out by P, recovered element by element with one-hot
// probes and judged like `diff` judges the contracts. Without --case (or with --case gdn and its
// own decoder) the GDN decoder runs; any other case, or --decoder, runs one of the toolkit's
// generic decoders (probe/case_probe.h). Exit 0 when clean, 1 on any finding (a misread, an
// unresolved element, a disagreement with the static diff, values that differ), 2 on bad input.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cases/gdn/gdn_case.h"
#include "cases/gdn/layouts.h"
#include "cases/gdn/probe/gdn_case_verdict.h"
#include "cases/gdn/probe/probe_sweep.h"
#include "cases/gdn/probe/runner_registry.h"
#include "cases/gdn/standard_layouts.h"
#include "commands.h"
#include "common.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/probe/case_probe.h"
#include "layoutcheck/probe/case_probe_request.h"
#include "layoutcheck/render/misread_json.h"
#ifdef LAYOUTCHECK_HAVE_GPU
#include "cases/gdn/gpu/gpu_runner_registry.h"
#endif

namespace layoutcheck::cli {
namespace {

struct ProbeCommandOptions {
  std::optional<std::string> case_name;
  std::optional<std::string> decoder;
  std::int64_t rows = 2;
  std::int64_t max_probes = CaseProbeRequest{}.max_probes;
  std::string producer;
  std::string consumer;
  std::vector<std::string> with;  // contracts of the buffers not probed, as the kernel reads them
  std::vector<std::string> producer_with;  // ... and as the model lays them out (--case only)
  std::vector<std::string> assignments;
  std::optional<std::string> buffer;
  std::string backend = "cpu";
  bool json = false;
  bool list_backends = false;
  std::int64_t max_batch = 0;
  std::uint64_t seed = 1;
  double tolerance = ProbeOptions{}.tolerance;
  std::optional<std::size_t> max_runs;
  std::int64_t max_elements = kDefaultElementCap;
  bool tolerance_given = false;
};

// Draws "probing qkvz [=====     ]  50% 8192/16384" on stderr once a sweep has run a second; in a
// log (stderr not a terminal) a line every ten seconds instead, so a long sweep shows it is alive.
class ProgressBar {
 public:
  explicit ProgressBar(std::string what)
      : what_(std::move(what)),
        terminal_(isatty(STDERR_FILENO) != 0),
        start_(std::chrono::steady_clock::now()),
        last_(start_) {}
  ~ProgressBar() {
    if (drawn_) std::cerr << "\r" << std::string(72, ' ') << "\r" << std::flush;
  }
  void update(std::int64_t done, std::int64_t total) {
    if (total <= 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (!terminal_) {
      if (now - last_ < std::chrono::seconds(10)) return;
      last_ = now;
      const double elapsed = std::chrono::duration<double>(now - start_).count();
      std::fprintf(stderr, "[%7.1f s] probing %s: %lld of %lld (%lld%%)\n", elapsed,
                   what_.c_str(), static_cast<long long>(done), static_cast<long long>(total),
                   static_cast<long long>(100 * done / total));
      return;
    }
    if (now - start_ < std::chrono::seconds(1) ||
        (done < total && now - last_ < std::chrono::milliseconds(100)))
      return;
    last_ = now;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * done / total);
    std::cerr << "\rprobing " << what_ << " [" << std::string(filled, '=')
              << std::string(kWidth - filled, ' ') << "] " << 100 * done / total << "% " << done
              << "/" << total << std::flush;
    drawn_ = true;
  }

 private:
  std::string what_;
  bool terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// A companion contract next to the consumer: qwen3_next.qkvz.yaml -> qwen3_next.ba.yaml.
std::optional<std::string> sibling(const std::string& consumer, const std::string& buffer_of_it,
                                   const std::string& wanted) {
  const std::filesystem::path path(consumer);
  const std::string name = path.filename().string();
  const std::string suffix = "." + buffer_of_it + ".yaml";
  if (name.size() <= suffix.size() ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  const std::filesystem::path candidate =
      path.parent_path() / (name.substr(0, name.size() - suffix.size()) + "." + wanted + ".yaml");
  if (std::filesystem::exists(candidate)) return candidate.string();
  return std::nullopt;
}

// The layouts the kernel claims to read: the consumer for the probed buffer; for the others the
// --with contracts, else the consumer's siblings, else Qwen3.5's flat layouts and [HV,K,V] state.
GdnLayouts consumer_layouts(const ProbeCommandOptions& options, const LoadOptions& load,
                            const Contract& consumer, GdnBuffer probed, const GdnShape& shape,
                            std::vector<std::string>& assumed) {
  GdnLayouts layouts = flat_gdn_layouts(shape);
  std::vector<bool> given(3, false);
  layout_of(layouts, probed) = consumer;
  given[static_cast<int>(probed)] = true;
  for (const std::string& file : options.with) {
    Contract contract = load_contract(file, load);
    const GdnBuffer buffer = gdn_buffer_from_name(contract.buffer);
    if (given[static_cast<int>(buffer)])
      throw InputError(Diagnostic{SourceLocation{file}, Severity::error, "usage",
                                  "a second contract for buffer '" + contract.buffer + "'",
                                  "give one contract per buffer"});
    layout_of(layouts, buffer) = std::move(contract);
    given[static_cast<int>(buffer)] = true;
  }
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state}) {
    if (given[static_cast<int>(buffer)]) continue;
    const std::string wanted(buffer == GdnBuffer::state ? "" : gdn_buffer_name(buffer));
    if (const auto file =
            wanted.empty() ? std::nullopt : sibling(options.consumer, consumer.buffer, wanted)) {
      layout_of(layouts, buffer) = load_contract(*file, load);
      assumed.push_back(*file);
    } else {
      assumed.push_back(layout_of(layouts, buffer).name + " (built in)");
    }
  }
  return layouts;
}

int run_case_probe(const ProbeCommandOptions& options, const Case& subject,
                   const std::string& decoder) {
  const LoadOptions load = load_options_from(options.assignments, options.max_elements);
  CaseProbeRequest request = case_probe_request(
      subject,
      CaseProbeFiles{options.producer, options.consumer, options.with, options.producer_with,
                     options.buffer},
      load, contracts_folder());
  request.rows = options.rows;
  request.element_cap = options.max_elements;
  request.seed = options.seed;
  request.max_probes = options.max_probes;
  request.tolerance = options.tolerance_given ? options.tolerance : request.tolerance;
  ProgressBar bar(request.buffer);
  request.progress = [&bar](std::int64_t done, std::int64_t total) { bar.update(done, total); };

  std::unique_ptr<CaseRunner> kernel;
  const std::string mutant_prefix = "cpu:mutant:";
  if (options.backend == "cpu") {
    kernel = subject.reference(request.claimed);
  } else if (options.backend.rfind(mutant_prefix, 0) == 0) {
    kernel = subject.mutant(options.backend.substr(mutant_prefix.size()), request.claimed);
  }
  if (!kernel) {
    std::string names = "cpu";
    for (const auto& [name, description] : subject.mutants()) names += ", cpu:mutant:" + name;
    throw InputError(
        Diagnostic{SourceLocation{"<command line>"}, Severity::error, "backend",
                   "case '" + subject.name() + "' has no runner '" + options.backend + "'",
                   "one of: " + names + " (GPU ports: layoutcheck run MANIFEST.yaml)"});
  }
  const CaseVerdict verdict = probe_case(subject, *kernel, decoder, request);
  if (options.json)
    std::cout << case_verdict_json(verdict, options.max_runs.value_or(kAllRuns)).dump() << "\n";
  else
    std::cout << case_verdict_text(verdict, options.max_runs.value_or(8));
  return verdict.clean() ? kClean : kFindings;
}

int run_probe(const ProbeCommandOptions& options) {
  if (options.case_name || options.decoder) {
    const auto subject = CaseRegistry::instance().get(options.case_name.value_or("gdn"));
    const std::string decoder = options.decoder.value_or(subject->decoders().front());
    if (decoder != kGdnDecoder) return run_case_probe(options, *subject, decoder);
    if (subject->name() != "gdn")
      throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                  "decoder 'gdn' decodes only the gdn case",
                                  "--decoder dependence or data-movement"});
  }
  if (!options.producer_with.empty())
    throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                "--producer-with is for the generic decoders: the gdn decoder "
                                "probes one buffer against its producer alone",
                                "--decoder dependence, or leave --producer-with out"});
  RunnerRegistry& registry = RunnerRegistry::instance();
#ifdef LAYOUTCHECK_HAVE_GPU
  static const bool gpu_registered = (register_gpu_runners(registry), true);
  (void)gpu_registered;
#endif
  if (options.list_backends) {
    for (const auto& [name, description] : registry.list())
      std::cout << name << "\n    " << description << "\n";
    return kClean;
  }
  if (options.producer.empty() || options.consumer.empty())
    throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                "--producer and --consumer are required",
                                "layoutcheck probe --producer P.yaml --consumer C.yaml"});

  const LoadOptions load = load_options_from(options.assignments, options.max_elements);
  const Contract producer = load_contract(options.producer, load);
  const Contract consumer = load_contract(options.consumer, load);
  const GdnBuffer buffer = gdn_buffer_from_name(options.buffer.value_or(consumer.buffer));
  const GdnShape shape = gdn_shape_from_symbols(consumer);
  std::vector<std::string> assumed;
  ProbeTarget target{shape, buffer, producer,
                     consumer_layouts(options, load, consumer, buffer, shape, assumed)};

  if (buffer == GdnBuffer::state && std::min(producer.row_size, options.max_probes) > 100000 &&
      options.backend == "cpu")
    std::cerr << "note: probing " << std::min(producer.row_size, options.max_probes)
              << " state offsets, one batch row each; on the CPU that takes a long while (--set "
                 "smaller sizes, or fewer --max-probes)\n";
  const std::unique_ptr<GdnRunner> kernel =
      registry.make(options.backend, RunnerRequest{shape, target.consumer});
  ProbeOptions probe;
  probe.max_batch = options.max_batch;
  probe.seed = options.seed;
  probe.max_probes = options.max_probes;
  probe.tolerance = options.tolerance;
  ProgressBar bar(std::string(gdn_buffer_name(buffer)));
  probe.progress = [&bar](std::int64_t done, std::int64_t total) { bar.update(done, total); };

  const CaseVerdict verdict = gdn_case_verdict(probe_gdn_runner(*kernel, target, probe));
  if (options.json) {
    std::cout << case_verdict_json(verdict, options.max_runs.value_or(kAllRuns)).dump() << "\n";
  } else {
    std::cout << case_verdict_text(verdict, options.max_runs.value_or(8));
    if (!assumed.empty()) {
      std::cout << "  (the buffers not probed were laid out as";
      for (const std::string& file : assumed) std::cout << " " << file;
      std::cout << "; use --with to say how the kernel reads them)\n";
    }
  }
  return verdict.clean() ? kClean : kFindings;
}

}  // namespace

Command setup_probe_command(CLI::App& parent) {
  auto options = std::make_shared<ProbeCommandOptions>();
  CLI::App* app = parent.add_subcommand(
      "probe",
      "What a kernel built for CONSUMER's layout really reads when fed buffers laid out by "
      "PRODUCER, found with one-hot probes. Exit 0: clean, 1: findings, 2: usage or input error");
  app->add_option("--case", options->case_name,
                  "Case the kernel belongs to (layoutcheck cases lists them; default gdn)");
  app->add_option("--decoder", options->decoder,
                  "How responses are decoded: the case's own (gdn), dependence or data-movement "
                  "(default: the case's first)");
  app->add_option("--rows", options->rows,
                  "Batch rows per run for the generic decoders (default 2; rows after the first "
                  "check the row stride)")
      ->check(integer_at_least(1));
  app->add_option("--max-probes", options->max_probes,
                  "Offsets probed at most; above, a seeded random sample, which the verdict "
                  "names (default 16384)")
      ->check(integer_at_least(1));
  app->add_option("--producer", options->producer, "Contract of the buffer as written")
      ->check(CLI::ExistingFile);
  app->add_option("--consumer", options->consumer, "Contract the kernel was built for")
      ->check(CLI::ExistingFile);
  app->add_option("--with", options->with,
                  "Contract of a buffer not probed, as the kernel reads it (repeatable); default: "
                  "the consumer's sibling files, else Qwen3.5's flat layouts and an [HV,K,V] "
                  "state; with the generic decoders the case's own contracts")
      ->check(CLI::ExistingFile);
  app->add_option("--producer-with", options->producer_with,
                  "With the generic decoders (--decoder, or a --case other than gdn): contract "
                  "of a buffer not probed, as the model lays it out "
                  "(repeatable); default: the case's own contract. Give it beside --with when "
                  "both sides use another layout than the case's (shifted windows, say)")
      ->check(CLI::ExistingFile);
  add_set_option(app, options->assignments);
  add_max_elements_option(app, options->max_elements);
  app->add_option("--buffer", options->buffer,
                  "Buffer to probe: one the case reads; for gdn qkvz, ba or state (default: the "
                  "contracts' buffer)");
  app->add_option("--backend", options->backend,
                  "Runner: cpu (default), cpu:mutant:NAME, or gpu... in GPU builds "
                  "(--list-backends shows them)");
  app->add_flag("--list-backends", options->list_backends, "List the runners and exit");
  app->add_flag("--json", options->json, "Print the verdict as JSON");
  app->add_option("--max-batch", options->max_batch,
                  "Probes per runner call (default: sized for the backend)")
      ->check(integer_at_least(1));
  app->add_option("--seed", options->seed, "Seed of the random conv state and weights")
      ->check(unsigned_integer());
  app->add_option("--tolerance", options->tolerance,
                  "Relative distance within which a response matches a prediction (default "
                  "0.01 for gdn, 0.05 for the generic decoders)")
      ->check(finite_number_above(0))
      ->each([options](const std::string&) { options->tolerance_given = true; });
  app->add_option("--max-runs", options->max_runs,
                  "Misread runs to list (text default 8, JSON default all)")
      ->check(integer_at_least(0));
  return {app, [options] { return run_probe(*options); }, [options] { return options->json; }};
}

}  // namespace layoutcheck::cli
