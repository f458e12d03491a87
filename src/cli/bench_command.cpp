// layoutcheck bench --case NAME --out DIR: the case's bench (Case::bench, its GPU half registered
// in gpu/case_bench.h) gates every path against the reference, times the VALID ones in graphs and
// writes report.md and report.json. A layer-graph bench (gdn: --batch, --layers, --steps) times one
// graph per path holding all layers and draws chart.svg; an operator bench (pangu: --framework)
// times each operator beside a copy of the same bytes. Needs a GPU; --from re-renders a recorded
// layer-graph report.json anywhere. Exit 0 clean, 1 a path INVALID (or a negative control VALID),
// 2 usage or input error, or no GPU.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.h"
#include "common.h"
#include "layoutcheck/bench/bench_request.h"
#include "layoutcheck/bench/operator_report.h"
#include "layoutcheck/bench/result.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/expression.h"
#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/report/json_report.h"
#include "layoutcheck/report/markdown_report.h"
#include "layoutcheck/report/operator_report_render.h"
#include "layoutcheck/report/write_report.h"
#if defined(LAYOUTCHECK_HAVE_GPU)
#include "layoutcheck/gpu/case_bench.h"
#include "layoutcheck/gpu/device.h"
#endif

namespace layoutcheck::cli {
namespace {

struct BenchCommandOptions {
  std::string case_name = "gdn-decode";
  BenchRequest request;
  std::vector<std::string> batch_lists;  // --batch as given, "1,8" per occurrence
  std::vector<std::string> assignments;
  std::string out;
  std::string from;
  std::string launch = "serial";
  bool quiet = false;
  std::string command_line;
};

// On a terminal one status line is rewritten in place; elsewhere (logs, CI) each stage is a line.
class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool quiet) : quiet_(quiet), terminal_(isatty(fileno(stderr)) != 0) {}
  ~ProgressPrinter() { finish(); }
  void operator()(const std::string& line) {
    if (quiet_) return;
    if (terminal_) {
      std::cerr << "\r\033[K" << line << std::flush;
      pending_ = true;
    } else {  // a log: when each stage began, so slow stages show
      const auto elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
      std::fprintf(stderr, "[%7.1f s] %s\n", elapsed, line.c_str());
    }
  }
  void finish() {
    if (pending_) std::cerr << "\r\033[K" << std::flush;
    pending_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool quiet_;
  bool terminal_;
  bool pending_ = false;
  Clock::time_point start_ = Clock::now();
};

// Splits --batch here rather than in CLI11, which drops the empty entry of "1,,2".
std::vector<std::int64_t> parse_batches(const std::vector<std::string>& lists) {
  std::vector<std::int64_t> batches;
  for (const std::string& list : lists) {
    std::size_t begin = 0;
    while (true) {
      const std::size_t end = std::min(list.find(',', begin), list.size());
      const std::string_view entry = std::string_view(list).substr(begin, end - begin);
      if (entry.empty())
        throw_usage_error("--batch " + list + " has an empty entry", "e.g. --batch 1,8,64,256");
      const std::optional<std::int64_t> batch = whole_integer(entry);
      if (!batch)
        throw_usage_error("--batch " + std::string(entry) + " is not a batch size",
                          "batch sizes are whole numbers from 1 to 2^63-1");
      batches.push_back(*batch);
      if (end == list.size()) break;
      begin = end + 1;
    }
  }
  return batches;
}

// --from runs nothing, so an option that shapes a run would be silently ignored: refuse it.
void reject_run_options(const CLI::App& app) {
  static const std::pair<const char*, const char*> kRunOptions[] = {
      {"--batch", "the report's batches are re-rendered"},
      {"--layers", "the report's layer count is re-rendered"},
      {"--steps", "the report's multi-step gate is re-judged as recorded"},
      {"--replays", "the report's samples are re-rendered"},
      {"--warmup", "the report's samples are re-rendered"},
      {"--set", "the report's sizes are re-rendered"},
      {"--no-probe", "the report's misread counts are re-judged as recorded"},
      {"--launch", "the report's launch order is re-rendered as recorded"},
      {"--framework", "the report's framework figures are re-rendered as recorded"},
      {"--case", "the report names its case"},
  };
  for (const auto& [name, why] : kRunOptions)
    if (app.count(name) > 0)
      throw_usage_error(std::string(name) + " does not apply with --from: " + why,
                        "leave it out, or run without --from");
}

int finish_with(const BenchReport& report, const std::string& out) {
  const auto files = write_bench_report(report, out);
  // The table a reviewer pastes comes last, so it is what a terminal or a log shows.
  std::cout << render_markdown_report(report);
  for (const auto& file : files) std::cout << "wrote " << file.string() << "\n";
  const std::vector<std::string> found = findings(report);
  for (const std::string& finding : found) std::cerr << "layoutcheck bench: " << finding << "\n";
  return found.empty() ? kClean : kFindings;
}

int finish_with(const OperatorBenchReport& report, const std::string& out) {
  std::filesystem::create_directories(out);
  const std::string markdown = render_operator_markdown(report);
  write_output_file(out + "/report.md", markdown);
  write_output_file(out + "/report.json", operator_report_json(report).dump() + "\n");
  std::cout << markdown << "wrote " << out << "/report.md\nwrote " << out << "/report.json\n";
  for (const std::string& miss : operator_target_misses(report))
    std::cerr << "layoutcheck bench: target missed: " << miss << "\n";
  for (const std::string& target : operator_targets_not_checked(report))
    std::cerr << "layoutcheck bench: target not checked: " << target << "\n";
  const std::vector<std::string> found = operator_findings(report);
  for (const std::string& finding : found) std::cerr << "layoutcheck bench: " << finding << "\n";
  return found.empty() ? kClean : kFindings;
}

int rerender(const BenchCommandOptions& options) {
  const std::string text = read_file_capped(options.from, kMaxBenchReportBytes, "a bench report");
  BenchReport report;
  try {
    report = bench_report_from_json(Json::parse(text));
  } catch (const std::runtime_error& error) {  // the file, then the line or member in it
    throw std::runtime_error(options.from + ": " + error.what());
  }
  return finish_with(report, options.out);
}

int run_bench(BenchCommandOptions& options, const CLI::App& app) {
  if (!options.from.empty()) {
    reject_run_options(app);
    return rerender(options);
  }
  // The case by its name or by the name its reports carry ("gdn-decode"); one without a bench is
  // told so, not silently skipped.
  std::shared_ptr<const Case> subject = CaseRegistry::instance().find_bench(options.case_name);
  if (!subject) {
    std::string benched;
    for (const auto& known : CaseRegistry::instance().list())
      if (const auto declared = known->bench())
        benched += (benched.empty() ? "" : ", ") + declared->report_name;
    const bool known = CaseRegistry::instance().find(options.case_name) != nullptr;
    std::cerr << "layoutcheck bench: "
              << (known ? "case '" + options.case_name + "' has no bench paths"
                        : "unknown case '" + options.case_name + "'")
              << " (benched: " << (benched.empty() ? "none" : benched) << ")\n";
    return kInputError;
  }

  BenchRequest& request = options.request;
  if (!options.batch_lists.empty()) request.batches = parse_batches(options.batch_lists);
  for (const std::string& text : options.assignments)
    request.sizes.push_back(parse_symbol_assignment(text));
  request.overlapped_launches = options.launch == "overlapped";
  request.command = options.command_line;
  request.contracts_folder = contracts_folder().string();
  validate_bench_request(request);
  subject->validate_bench(request);

#if defined(LAYOUTCHECK_HAVE_GPU)
  const gpu::CaseBench* bench = gpu::CaseBenchRegistry::instance().find(subject->name());
  if (bench == nullptr) {
    std::cerr << "layoutcheck bench: case '" << subject->name()
              << "' declares a bench but this build has no GPU half for it\n";
    return kInputError;
  }
  if (!gpu::gpu_available()) {
    std::cerr << "layoutcheck bench: needs a GPU: " << gpu::gpu_unavailable_reason()
              << " (--from report.json re-renders a recorded run without one)\n";
    return kInputError;
  }
  ProgressPrinter progress(options.quiet);
  const auto say = [&](const std::string& line) { progress(line); };
  if (bench->run_operators) {
    const OperatorBenchReport report = bench->run_operators(request, say);
    progress.finish();
    return finish_with(report, options.out);
  }
  if (!request.framework_figures.empty())
    throw_usage_error("--framework applies to operator benches; case '" + subject->name() +
                          "' benches layer graphs",
                      "leave --framework out");
  const BenchReport report = bench->run(request, say);
  progress.finish();
  return finish_with(report, options.out);
#else
  std::cerr << "layoutcheck bench: needs a GPU: this build has no GPU backend (configure with "
               "-DLAYOUTCHECK_GPU_BACKEND=cuda or hip); --from report.json re-renders a recorded "
               "run without one\n";
  return kInputError;
#endif
}

// The options as given, for the report: "layoutcheck bench --batch 1,64 --out out".
std::string command_line_of(const CLI::App& app) {
  std::string line = "layoutcheck bench";
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0 || option->get_name() == "--help") continue;
    if (option->get_type_size() == 0) {  // a flag
      line += " " + option->get_name();
    } else if (option->get_name() == "--batch") {
      line += " --batch " + CLI::detail::join(option->results(), ",");
    } else {
      for (const std::string& value : option->results())
        line += " " + option->get_name() + " " + value;
    }
  }
  return line;
}

}  // namespace

Command setup_bench_command(CLI::App& parent) {
  auto options = std::make_shared<BenchCommandOptions>();
  CLI::App* app = parent.add_subcommand(
      "bench",
      "Gate every path of a case's bench against its reference, time the VALID ones in graphs "
      "and write report.md and report.json (gdn: one graph per path holding all layers, and "
      "chart.svg; pangu: each operator at both grid levels beside a copy of the same bytes). "
      "Needs a GPU. "
      "Exit 0: clean, 1: a path INVALID, 2: usage or input error, or no GPU");
  app->add_option("--case", options->case_name,
                  "The case to bench (layoutcheck cases lists each one's bench paths)")
      ->default_val("gdn-decode");
  app->add_option("--batch", options->batch_lists,
                  "Layer-graph benches: batch sizes, comma separated")
      ->type_name("INT,...")
      ->default_str("1,8,64,256");
  app->add_option("--layers", options->request.layers,
                  "Layer-graph benches: layers per graph, each with its own buffers")
      ->check(whole_number())
      ->default_val(48);
  app->add_option("--steps", options->request.steps,
                  "Layer-graph benches: length of the multi-step gate")
      ->check(whole_number())
      ->default_val(1024);
  app->add_option("--replays", options->request.replays, "Timed graph replays per path and batch")
      ->check(whole_number())
      ->default_val(100);
  app->add_option("--warmup", options->request.warmup_replays, "Untimed replays before timing")
      ->check(whole_number())
      ->default_val(10);
  app->add_option(
         "--launch", options->launch,
         "Layer-graph benches: how kernels launch in the layer graphs: serial (the default), or "
         "overlapped (programmatic dependent launch for every kernel of every path, NVIDIA "
         "sm_90+; each may start while the previous one finishes). Operator benches time both")
      ->check(CLI::IsMember({"serial", "overlapped"}))
      ->default_val("serial");
  add_set_option(app, options->assignments);
  app->add_option("--out", options->out,
                  "Folder for report.md and report.json (and chart.svg, layer-graph benches)")
      ->required();
  app->add_option("--from", options->from,
                  "Re-render a recorded layer-graph report.json (no GPU needed) instead of running")
      ->check(CLI::ExistingFile);
  app->add_option("--framework", options->request.framework_figures,
                  "Operator benches: a framework's figures for the same operators on the same GPU "
                  "(scripts/pangu-framework-bench.py --json), shown beside the paths and made a "
                  "target")
      ->check(CLI::ExistingFile);
  app->add_flag("--quiet", options->quiet, "No progress lines on stderr");
  app->add_flag("!--no-probe", options->request.gpu_probe,
                "Take the negative control's misread count from the static diff instead of a GPU "
                "one-hot sweep");
  return {app, [options, app] {
            options->command_line = command_line_of(*app);
            return run_bench(*options, *app);
          }};
}

}  // namespace layoutcheck::cli
