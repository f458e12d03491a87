// How long lint and diff take on a row of about 10^7 elements (the budget: each under 2 s on a
// 2-core machine). The contracts are synthetic but shaped like the GDN case they scale up: four
// fields Q, K, V, Z, the producer flat and group-major, the consumer interleaved per key head
// (value head hv = h*G + r split into two modes), each with a declared padding tail. The YAML is
// written with small default symbols and scaled with overrides, exactly what `--set` does:
//   H=512, HV=2048, K=V=2048  ->  2*512*2048 + 2*2048*2048 = 10,485,760 elements per row.
//
// Figures: Parse (YAML -> resolved contract), Check (the layout rules on a parsed contract),
// LintFile (what `layoutcheck lint FILE` does), Diff (the misread report of two loaded contracts)
// and DiffFiles (what `layoutcheck diff P C` does: load and check both, then diff); DiffTranspose,
// the most runs a row of 10^7 elements can have.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "scratch_folder.h"

namespace {

constexpr std::int64_t kPaddingTail = 64;

std::string symbols_and_rows() {
  return "dtype: bf16\n"
         "symbols:\n"
         "  H: 4\n"
         "  HV: 8\n"
         "  K: 16\n"
         "  V: 16\n"
         "  G: HV / H\n"
         "  PAD: 64\n"
         "rows:\n"
         "  - name: token\n";
}

// Qwen3.5-like: [Q all | K all | V all | Z all | padding].
std::string flat_yaml() {
  return "layoutcheck: 1\n"
         "name: synthetic.flat\n"
         "buffer: synthetic\n" +
         symbols_and_rows() +
         "row_size: 2*H*K + 2*HV*V + PAD\n"
         "fields:\n"
         "  - name: Q\n"
         "    offset: 0\n"
         "    dims:\n"
         "      - {name: h, size: H, stride: K}\n"
         "      - {name: k, size: K, stride: 1}\n"
         "  - name: K\n"
         "    offset: H*K\n"
         "    dims:\n"
         "      - {name: h, size: H, stride: K}\n"
         "      - {name: k, size: K, stride: 1}\n"
         "  - name: V\n"
         "    offset: 2*H*K\n"
         "    dims:\n"
         "      - {name: hv, size: HV, stride: V}\n"
         "      - {name: v, size: V, stride: 1}\n"
         "  - name: Z\n"
         "    offset: 2*H*K + HV*V\n"
         "    dims:\n"
         "      - {name: hv, size: HV, stride: V}\n"
         "      - {name: v, size: V, stride: 1}\n"
         "padding:\n"
         "  - {name: tail, offset: 2*H*K + 2*HV*V, size: PAD}\n";
}

// Qwen3-Next-like: per key head h a group [q(K) k(K) v(G*V) z(G*V)], then padding.
std::string interleaved_yaml() {
  const std::string value_head_modes =
      "      - name: hv\n"
      "        size: HV\n"
      "        modes:\n"
      "          - {name: r, size: G, stride: V}\n"
      "          - {name: h, size: H, stride: 2*K + 2*G*V}\n"
      "      - {name: v, size: V, stride: 1}\n";
  return "layoutcheck: 1\n"
         "name: synthetic.interleaved\n"
         "buffer: synthetic\n" +
         symbols_and_rows() +
         "row_size: H*(2*K + 2*G*V) + PAD\n"
         "fields:\n"
         "  - name: Q\n"
         "    offset: 0\n"
         "    dims:\n"
         "      - {name: h, size: H, stride: 2*K + 2*G*V}\n"
         "      - {name: k, size: K, stride: 1}\n"
         "  - name: K\n"
         "    offset: K\n"
         "    dims:\n"
         "      - {name: h, size: H, stride: 2*K + 2*G*V}\n"
         "      - {name: k, size: K, stride: 1}\n"
         "  - name: V\n"
         "    offset: 2*K\n"
         "    dims:\n" +
         value_head_modes +
         "  - name: Z\n"
         "    offset: 2*K + G*V\n"
         "    dims:\n" +
         value_head_modes +
         "padding:\n"
         "  - {name: tail, offset: H*(2*K + 2*G*V), size: PAD}\n";
}

layoutcheck::LoadOptions scaled() {
  layoutcheck::LoadOptions options;
  options.overrides = {{"H", 512}, {"HV", 2048}, {"K", 2048}, {"V", 2048}};
  return options;
}

// The YAML written once to files, for the benchmarks that go through the file path like the CLI.
struct ContractFiles {
  layoutcheck::testing::ScratchFolder directory{"layoutcheck-contract-benchmark"};
  std::string flat = directory.write("flat.yaml", flat_yaml());
  std::string interleaved = directory.write("interleaved.yaml", interleaved_yaml());
};

const ContractFiles& files() {
  static const ContractFiles instance;
  return instance;
}

// Loads (parse + every check) or reports why not: a benchmark of a broken contract means nothing.
layoutcheck::Contract load_or_die(const std::string& text, const std::string& name) {
  try {
    return layoutcheck::load_contract_text(text, name, scaled());
  } catch (const layoutcheck::InputError& error) {
    for (const auto& diagnostic : error.diagnostics()) std::cerr << diagnostic.str() << "\n";
    std::exit(2);
  }
}

void report_elements(benchmark::State& state, std::int64_t elements) {
  state.SetItemsProcessed(state.iterations() * elements);
  state.counters["elements"] = static_cast<double>(elements);
}

void BM_Parse(benchmark::State& state) {
  const std::string text = interleaved_yaml();
  std::int64_t elements = 0;
  for (auto _ : state) {
    layoutcheck::ParseResult parsed = layoutcheck::parse_contract_text(text, "synthetic", scaled());
    if (!parsed.contract) {
      state.SkipWithError("the synthetic contract did not parse");
      return;
    }
    elements = parsed.contract->elements();
    benchmark::DoNotOptimize(parsed);
  }
  report_elements(state, elements);
}

void BM_Check(benchmark::State& state) {
  const layoutcheck::Contract contract = load_or_die(interleaved_yaml(), "interleaved");
  for (auto _ : state) {
    auto diagnostics = layoutcheck::check_contract(contract);
    if (layoutcheck::has_errors(diagnostics)) {
      state.SkipWithError(diagnostics.front().str().c_str());
      return;
    }
    benchmark::DoNotOptimize(diagnostics);
  }
  report_elements(state, contract.elements());
}

void BM_LintFile(benchmark::State& state) {
  std::int64_t elements = load_or_die(interleaved_yaml(), "interleaved").elements();
  for (auto _ : state) {
    auto diagnostics = layoutcheck::lint_file(files().interleaved, scaled());
    if (layoutcheck::has_errors(diagnostics)) {
      state.SkipWithError(diagnostics.front().str().c_str());
      return;
    }
    benchmark::DoNotOptimize(diagnostics);
  }
  report_elements(state, elements);
}

void BM_Diff(benchmark::State& state) {
  const layoutcheck::Contract producer = load_or_die(flat_yaml(), "flat");
  const layoutcheck::Contract consumer = load_or_die(interleaved_yaml(), "interleaved");
  std::int64_t misread = 0;
  for (auto _ : state) {
    layoutcheck::MisreadReport report = layoutcheck::diff_contracts(producer, consumer);
    misread = report.misread;
    benchmark::DoNotOptimize(report);
  }
  report_elements(state, consumer.elements());
  state.counters["misread"] = static_cast<double>(misread);
}

void BM_DiffFiles(benchmark::State& state) {
  std::int64_t elements = 0;
  for (auto _ : state) {
    const layoutcheck::Contract producer = layoutcheck::load_contract(files().flat, scaled());
    const layoutcheck::Contract consumer =
        layoutcheck::load_contract(files().interleaved, scaled());
    layoutcheck::MisreadReport report = layoutcheck::diff_contracts(producer, consumer);
    elements = report.elements;
    benchmark::DoNotOptimize(report);
  }
  report_elements(state, elements);
}

// The worst case for the run grouping: a 10000 x 1000 matrix read transposed, 10^7 one-element
// runs of which only the first few are formatted.
std::string matrix_yaml(const std::string& name, const std::string& row_stride,
                        const std::string& col_stride) {
  return "layoutcheck: 1\n"
         "name: " + name + "\n"
         "buffer: matrix\n"
         "dtype: fp16\n"
         "symbols:\n"
         "  R: 10000\n"
         "  C: 1000\n"
         "rows:\n"
         "  - name: call\n"
         "row_size: R*C\n"
         "fields:\n"
         "  - name: X\n"
         "    offset: 0\n"
         "    dims:\n"
         "      - {name: r, size: R, stride: " + row_stride + "}\n"
         "      - {name: c, size: C, stride: " + col_stride + "}\n";
}

void BM_DiffTranspose(benchmark::State& state) {
  const layoutcheck::LoadOptions unscaled;
  const layoutcheck::Contract producer =
      layoutcheck::load_contract_text(matrix_yaml("row_major", "C", "1"), "row_major", unscaled);
  const layoutcheck::Contract consumer =
      layoutcheck::load_contract_text(matrix_yaml("col_major", "1", "R"), "col_major", unscaled);
  std::int64_t runs = 0;
  for (auto _ : state) {
    layoutcheck::MisreadReport report = layoutcheck::diff_contracts(producer, consumer);
    runs = report.runs_total;
    benchmark::DoNotOptimize(report);
  }
  report_elements(state, consumer.elements());
  state.counters["runs"] = static_cast<double>(runs);
}

// Each iteration is a large fraction of a second: a few iterations give a stable figure.
BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Check)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_LintFile)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Diff)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_DiffFiles)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_DiffTranspose)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
