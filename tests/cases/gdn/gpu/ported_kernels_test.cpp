// `layoutcheck run` on ported kernels: manifests are read strictly; every port and mutant
// in probes/gdn compiles at run time; on a GPU the correct port is clean, the upstream
// port misreads exactly what the static diff predicts, and each mutant is caught with
// the right diagnosis.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cases/gdn/gpu/ported_kernel.h"
#include "cases/gdn/gpu/ported_run.h"
#include "cases/gdn/run_manifest.h"
#include "cli_runner.h"
#include "gpu/gpu_test_support.h"
#include "layoutcheck/gpu/rtc.h"

namespace layoutcheck::gpu {
namespace {

using layoutcheck::testing::compile_arch;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::string mutant(const std::string& name) {
  return std::string(LAYOUTCHECK_TEST_DATA) + "/../probes/gdn/" + name + ".yaml";
}

const std::vector<std::string> kPorts = {
    "correct_native",       "upstream_port", "swap_q_k",         "swap_b_a",   "key_head_modulo",
    "v_stride_off_by_head", "z_from_v",      "state_transposed", "row_stride", "skip_l2norm",
    "out_transposed", "packed_rows", "last_head_unwritten"};

TEST(RunManifest, ReadsEveryShippedManifest) {
  for (const std::string& name : kPorts) {
    SCOPED_TRACE(name);
    const RunManifest manifest = load_run_manifest(mutant(name));
    EXPECT_EQ(manifest.entry, "gdn_decode_port");
    EXPECT_EQ(manifest.grid.size(), 2u);
    EXPECT_TRUE(fs::exists(manifest.source)) << manifest.source;
    EXPECT_TRUE(fs::exists(manifest.model.qkvz)) << manifest.model.qkvz;
  }
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

const char* kGoodManifest = R"(layoutcheck_run: 1
kernel:
  source: k.hip
  entry: k
  abi: gdn_decode_v1
  launch: {grid: [HV, batch], block: [128]}
consumes: {qkvz: a.yaml, ba: b.yaml, state: c.yaml}
model: {qkvz: a.yaml, ba: b.yaml, state: c.yaml}
)";

TEST(RunManifest, RejectsBadManifestsWithTheirLocation) {
  std::string text = kGoodManifest;
  EXPECT_NO_THROW(load_run_manifest(write_temp("lc_manifest_ok.yaml", text)));
  const auto expect_error = [](const std::string& manifest, const std::string& needle, int line) {
    try {
      (void)load_run_manifest(write_temp("lc_manifest_bad.yaml", manifest));
      ADD_FAILURE() << "no error for: " << needle;
    } catch (const InputError& error) {
      const Diagnostic& d = error.diagnostics().front();
      EXPECT_THAT(d.str(), HasSubstr(needle));
      if (line > 0) EXPECT_EQ(d.where.line, line) << d.str();
    }
  };
  expect_error(std::string(kGoodManifest) + "extra: 1\n", "unknown key 'extra'", 9);
  std::string abi = kGoodManifest;
  abi.replace(abi.find("gdn_decode_v1"), 13, "gdn_decode_v9");
  expect_error(abi, "unknown ABI 'gdn_decode_v9'", 5);
  std::string no_entry = kGoodManifest;
  no_entry.erase(no_entry.find("  entry: k\n"), 11);
  expect_error(no_entry, "needs 'entry'", 0);
  std::string bad_grid = kGoodManifest;
  bad_grid.replace(bad_grid.find("[HV, batch]"), 11, "[HV, batch, 1, 1]");
  expect_error(bad_grid, "1 to 3 expressions", 6);
  std::string bad_expression = kGoodManifest;
  bad_expression.replace(bad_expression.find("[128]"), 5, "[12 +]");
  expect_error(bad_expression, "", 6);
  expect_error("layoutcheck_run: 1\nkernel: [\n", "", 0);  // malformed YAML
}

// Compiling needs no GPU: every port and mutant builds with the embedded headers.
TEST(PortedKernels, EveryPortCompiles) {
  for (const std::string& name : kPorts) {
    SCOPED_TRACE(name);
    const RtcSource source = ported_kernel_source(load_run_manifest(mutant(name)));
    EXPECT_NO_THROW((void)rtc_compile(source, compile_arch()));
  }
}

PortedRunReport run_small(const std::string& name) {
  PortedRunOptions options;
  // small sizes: the state (2*4*16*12 = 1536 elements per row) is probed element by element too
  options.overrides = {{"H", 2}, {"HV", 6}, {"K", 16}, {"V", 12}};
  return run_ported_kernel(load_run_manifest(mutant(name)), options);
}

const BufferFinding& finding(const PortedRunReport& report, GdnBuffer buffer) {
  for (const BufferFinding& f : report.buffers)
    if (f.buffer == buffer) return f;
  throw std::logic_error("no finding");
}

std::int64_t field_misread(const ProbeVerdict& verdict, const std::string& field) {
  for (const FieldReport& f : verdict.reads.fields)
    if (f.name == field) return f.misread;
  return -1;
}

TEST(PortedKernels, CorrectPortIsClean) {
  LC_REQUIRE_GPU();
  const PortedRunReport report = run_small("correct_native");
  EXPECT_TRUE(report.clean()) << ported_run_text(report);
}

// At the full size the state (786432 offsets a row) is probed on a random sample, which the
// verdict names: the correct port is clean on it, and a port claiming [HV,K,V] that reads
// [HV,V,K] (the static diff of its claim sees nothing) is caught.
TEST(PortedKernels, FullSizeStateIsProbedOnASample) {
  LC_REQUIRE_GPU();
  const PortedRunReport correct =
      run_ported_kernel(load_run_manifest(mutant("correct_native")), PortedRunOptions{});
  const BufferFinding& sampled = finding(correct, GdnBuffer::state);
  EXPECT_EQ(sampled.probed.offsets, 48 * 128 * 128);
  EXPECT_LT(sampled.probed.probed, sampled.probed.offsets);
  EXPECT_TRUE(correct.clean()) << ported_run_text(correct);
  EXPECT_NE(correct.conclusion().find("state on a random sample"), std::string::npos)
      << correct.conclusion();

  const PortedRunReport transposed =
      run_ported_kernel(load_run_manifest(mutant("state_transposed")), PortedRunOptions{});
  const BufferFinding& state = finding(transposed, GdnBuffer::state);
  EXPECT_EQ(state.claimed.misread, 0);
  EXPECT_GT(state.probed.reads.misread, 0) << ported_run_text(transposed);
  EXPECT_FALSE(transposed.clean());
}

TEST(PortedKernels, UpstreamPortMisreadsWhatTheDiffPredicts) {
  LC_REQUIRE_GPU();
  const PortedRunReport report = run_small("upstream_port");
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba}) {
    const BufferFinding& f = finding(report, buffer);
    EXPECT_GT(f.probed.reads.misread, 0);
    EXPECT_EQ(f.probed.reads.misread, f.claimed.misread);
    EXPECT_TRUE(f.probed.agrees_with_diff) << ported_run_text(report);
  }
  EXPECT_TRUE(report.values.passed == false);
  EXPECT_FALSE(report.clean());
}

// Each mutant: the diagnosis it must get, found on the GPU although its manifest claims the
// right layout.
TEST(PortedKernels, MutantsAreCaughtWithTheRightDiagnosis) {
  LC_REQUIRE_GPU();
  const GdnShape small{2, 6, 16, 12, 4};
  {
    const PortedRunReport report = run_small("swap_q_k");
    const ProbeVerdict& qkvz = finding(report, GdnBuffer::qkvz).probed;
    EXPECT_EQ(field_misread(qkvz, "Q"), small.H * small.K) << ported_run_text(report);
    EXPECT_EQ(field_misread(qkvz, "K"), small.H * small.K);
    EXPECT_EQ(field_misread(qkvz, "V"), 0);
    EXPECT_EQ(field_misread(qkvz, "Z"), 0);
  }
  {
    const PortedRunReport report = run_small("swap_b_a");
    const ProbeVerdict& ba = finding(report, GdnBuffer::ba).probed;
    EXPECT_EQ(field_misread(ba, "B"), small.HV) << ported_run_text(report);
    EXPECT_EQ(field_misread(ba, "A"), small.HV);
    EXPECT_EQ(finding(report, GdnBuffer::qkvz).probed.reads.misread, 0);
  }
  {
    const PortedRunReport report = run_small("key_head_modulo");
    const ProbeVerdict& qkvz = finding(report, GdnBuffer::qkvz).probed;
    EXPECT_FALSE(qkvz.routing.empty()) << ported_run_text(report);
    EXPECT_FALSE(report.clean());
  }
  {
    const PortedRunReport report = run_small("v_stride_off_by_head");
    const ProbeVerdict& qkvz = finding(report, GdnBuffer::qkvz).probed;
    EXPECT_EQ(field_misread(qkvz, "V"), small.HV * small.V) << ported_run_text(report);
    EXPECT_EQ(field_misread(qkvz, "Q"), 0);
    EXPECT_EQ(field_misread(qkvz, "Z"), 0);
  }
  {
    const PortedRunReport report = run_small("z_from_v");
    const ProbeVerdict& qkvz = finding(report, GdnBuffer::qkvz).probed;
    EXPECT_EQ(field_misread(qkvz, "Z"), small.HV * small.V) << ported_run_text(report);
    EXPECT_EQ(field_misread(qkvz, "V"), 0);
  }
  {
    const PortedRunReport report = run_small("state_transposed");
    const BufferFinding& state = finding(report, GdnBuffer::state);
    EXPECT_EQ(state.claimed.misread, 0);  // the manifest claims [HV,K,V]
    EXPECT_GT(state.probed.reads.misread, 0) << ported_run_text(report);
    EXPECT_FALSE(state.probed.agrees_with_diff);
    EXPECT_EQ(finding(report, GdnBuffer::qkvz).probed.reads.misread, 0);
  }
  {
    const PortedRunReport report = run_small("row_stride");
    const ProbeVerdict& qkvz = finding(report, GdnBuffer::qkvz).probed;
    EXPECT_FALSE(qkvz.row_stride.empty()) << ported_run_text(report);
  }
  {
    // Written [V][HV]: named as the output's layout; every input still reads as it should.
    const PortedRunReport report = run_small("out_transposed");
    ASSERT_EQ(report.findings.size(), 1u) << ported_run_text(report);
    EXPECT_EQ(report.findings.front().kind, "output-layout");
    EXPECT_THAT(report.findings.front().message,
                HasSubstr("(" + std::to_string(small.HV) + "," + std::to_string(small.V) + "):(1," +
                          std::to_string(small.HV) + ")"));
    EXPECT_TRUE(report.layout_ok()) << ported_run_text(report);
    EXPECT_FALSE(report.clean());
    EXPECT_THAT(report.conclusion(), HasSubstr("output-layout"));
  }
  {
    // Rows at the packed pitch: clean on the model's packed rows, a row-pitch finding once the
    // rows are padded.
    const PortedRunReport report = run_small("packed_rows");
    EXPECT_TRUE(report.layout_ok()) << ported_run_text(report);
    ASSERT_EQ(report.findings.size(), 1u) << ported_run_text(report);
    EXPECT_EQ(report.findings.front().kind, "row-pitch");
    EXPECT_EQ(report.findings.front().buffer, "qkvz");
    EXPECT_FALSE(report.clean());
  }
  {
    // The last head's block returns at once: its outputs keep the sentinel, and are named.
    const PortedRunReport report = run_small("last_head_unwritten");
    const auto unwritten =
        std::find_if(report.findings.begin(), report.findings.end(),
                     [](const ProbeFinding& finding) { return finding.kind == "unwritten"; });
    ASSERT_NE(unwritten, report.findings.end()) << ported_run_text(report);
    EXPECT_EQ(unwritten->buffer, "out");
    EXPECT_THAT(unwritten->message, HasSubstr(std::to_string(3 * small.V) + " elements of 'out'"));
    EXPECT_FALSE(report.clean());
  }
  {
    const PortedRunReport report = run_small("skip_l2norm");
    EXPECT_TRUE(report.layout_ok()) << ported_run_text(report);
    EXPECT_FALSE(report.values.passed);
    EXPECT_EQ(report.conclusion(), "no layout misread, values differ from the reference");
  }
}


TEST(RunCommand, CompileErrorPrintsTheLogAndExitsTwo) {
  const std::string dir = (fs::temp_directory_path() / "lc_run_broken").string();
  fs::create_directories(dir);
  std::ofstream(dir + "/broken.hip")
      << "#include \"gdn_abi.h\"\nextern \"C\" __global__ void gdn_decode_port("
         "layoutcheck::GdnDecodeArgs args) { undeclared_thing(args); }\n";
  std::string manifest = std::string(kGoodManifest);
  manifest.replace(manifest.find("source: k.hip"), 13, "source: broken.hip");
  manifest.replace(manifest.find("entry: k"), 8, "entry: gdn_decode_port");
  const std::string contracts = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/";
  for (const auto& [from, to] :
       {std::pair{"a.yaml", "qwen3_5.qkvz.yaml"}, std::pair{"b.yaml", "qwen3_5.ba.yaml"},
        std::pair{"c.yaml", "state.hkv.yaml"}})
    for (std::size_t at; (at = manifest.find(from)) != std::string::npos;)
      manifest.replace(at, std::string(from).size(), contracts + to);
  std::ofstream(dir + "/broken.yaml") << manifest;
  const testing::CliResult run = testing::run_cli({"run", dir + "/broken.yaml"});
  const std::string& output = run.output;
  EXPECT_EQ(run.exit_code, 2) << output;
  if (gpu_available()) {
    EXPECT_THAT(output, HasSubstr("does not compile"));
    EXPECT_THAT(output, HasSubstr("undeclared_thing"));
  } else {
    EXPECT_THAT(output, HasSubstr("GPU"));
  }
}

}  // namespace
}  // namespace layoutcheck::gpu
