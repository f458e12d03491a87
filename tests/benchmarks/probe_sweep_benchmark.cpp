// The one-hot sweep's budget: every offset of the qkvz row (16,384 at 16/48/128/128)
// and of the ba row (96), against the CPU model of the Qwen3-Next kernel fed Qwen3.5 buffers: the
// article's bug. Prints the time of each sweep and whether the total is within 30 s; exits 1 if
// the probes do not find exactly the static diff's misread set (a wrong fast answer is no answer).
//
//   probe_sweep_benchmark [H HV K V]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include "cases/gdn/reference_runner.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/probe/probe_sweep.h"

namespace {

constexpr double kBudgetSeconds = 30;

struct Timed {
  layoutcheck::ProbeVerdict verdict;
  double wall = 0, cpu = 0;
};

Timed sweep(layoutcheck::GdnRunner& kernel, const layoutcheck::ProbeTarget& target) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  Timed timed;
  timed.verdict = layoutcheck::probe_gdn_runner(kernel, target);
  timed.cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  timed.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return timed;
}

// The 1-minute load average, to read the figures against: the budget is for an otherwise idle
// machine, and other processes sharing the cores stretch the wall time.
double load_average() {
  std::ifstream file("/proc/loadavg");
  double load = -1;
  file >> load;
  return load;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace layoutcheck;
  GdnShape shape;
  if (argc == 5) {
    shape.H = std::atoll(argv[1]);
    shape.HV = std::atoll(argv[2]);
    shape.K = std::atoll(argv[3]);
    shape.V = std::atoll(argv[4]);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [H HV K V]\n", argv[0]);
    return 2;
  }
  const GdnLayouts upstream = interleaved_gdn_layouts(shape);
  const GdnLayouts flat = flat_gdn_layouts(shape);
  ReferenceRunner kernel(shape, upstream);
  std::printf(
      "one-hot sweeps, CPU model of the Qwen3-Next kernel fed Qwen3.5 buffers, "
      "H=%lld HV=%lld K=%lld V=%lld, batch %lld per run\n",
      static_cast<long long>(shape.H), static_cast<long long>(shape.HV),
      static_cast<long long>(shape.K), static_cast<long long>(shape.V),
      static_cast<long long>(default_probe_batch(shape)));
  double total = 0;
  bool right = true;
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba}) {
    const Timed timed =
        sweep(kernel, ProbeTarget{shape, buffer, layout_of(flat, buffer), upstream});
    const ProbeVerdict& verdict = timed.verdict;
    total += timed.wall;
    right = right && verdict.agrees_with_diff && verdict.reads.unresolved == 0;
    std::printf(
        "  %-5s %6lld probes  %7.2f s wall  %7.2f s cpu  %8.0f probes/s  misread %lld of %lld, "
        "agrees with the static diff: %s\n",
        std::string(gdn_buffer_name(buffer)).c_str(), static_cast<long long>(verdict.probed),
        timed.wall, timed.cpu, static_cast<double>(verdict.probed) / timed.wall,
        static_cast<long long>(verdict.reads.misread),
        static_cast<long long>(verdict.reads.elements), verdict.agrees_with_diff ? "yes" : "NO");
  }
  std::printf("  total %.2f s (budget %.0f s: %s); %u hardware threads, load average %.2f\n", total,
              kBudgetSeconds, total <= kBudgetSeconds ? "within" : "OVER",
              std::thread::hardware_concurrency(), load_average());
  return right ? 0 : 1;
}
