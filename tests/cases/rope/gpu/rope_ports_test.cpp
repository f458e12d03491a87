// The RoPE ports of probes/rope, compiled at run time and probed on the GPU through their
// version-2 manifests (`layoutcheck run`): the half-split port is clean, the GPT-J-style
// (interleaved) port misreads exactly what the static diff says, and the port that ignores x's row
// stride is caught as soon as the model's rows are padded. Without a GPU: each port still compiles
// (NVRTC and hipRTC need none), the GPU tests skip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gpu/gpu_test_support.h"
#include "gpu/shipped_ports.h"
#include "layoutcheck/gpu/rtc.h"
#include "scratch_folder.h"

namespace layoutcheck::gpu {
namespace {

namespace fs = std::filesystem;
using layoutcheck::testing::compile_arch;

const std::string kRopeProbes = layoutcheck::testing::shipped_probes("rope");

PortManifest manifest(const std::string& path) {
  return layoutcheck::testing::load_port(path);
}

// RoPE ports are probed on x alone (Case::port_probe_buffers).
CaseVerdict probe_port(const PortManifest& port) {
  const PortCheck check = layoutcheck::testing::check_shipped_port(port);
  EXPECT_EQ(check.buffers.size(), 1u);
  EXPECT_EQ(check.clean(), check.buffers.at(0).clean());
  return check.buffers.at(0);
}

TEST(RopePorts, EveryPortCompilesWithoutAGpu) {
  layoutcheck::testing::expect_ports_compile(
      "rope",
      {"half_split_port", "interleaved_port", "rows_packed_port", "out_of_bounds_port",
       "last_pair_unwritten_port", "racing_readers_port"},
      "rope_port", compile_arch());
}

TEST(RopePorts, HalfSplitPortIsClean) {
  LC_REQUIRE_GPU();
  const CaseVerdict verdict = probe_port(manifest(kRopeProbes + "half_split_port.yaml"));
  EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  EXPECT_EQ(verdict.reads.misread, 0);
}

TEST(RopePorts, InterleavedPortMisreadsExactlyTheStaticDiff) {
  LC_REQUIRE_GPU();
  const CaseVerdict verdict = probe_port(manifest(kRopeProbes + "interleaved_port.yaml"));
  EXPECT_FALSE(verdict.clean());
  EXPECT_TRUE(verdict.agrees_with_diff) << case_verdict_text(verdict);
  EXPECT_EQ(verdict.reads.misread, 496);  // H = 8, D = 64: 512 elements, 16 read where they belong
  EXPECT_EQ(verdict.reads.misread, verdict.static_diff.misread);
}

// The model's x rows padded (contracts/rope/half_split_padded.x.yaml, stride H*D + 8): the port
// that assumes packed rows reads row 1 from the wrong place; the correct port, claiming and given
// the same padded rows, stays clean.
TEST(RopePorts, RowsPackedPortIsCaughtOnPaddedRows) {
  LC_REQUIRE_GPU();
  const CaseVerdict packed =
      probe_port(manifest(kRopeProbes + std::string("rows_packed_port.yaml")));
  EXPECT_FALSE(packed.clean()) << case_verdict_text(packed);
  EXPECT_GT(packed.row_stride_findings, 0) << case_verdict_text(packed);

  const layoutcheck::testing::ScratchFolder folder("lc_rope_ports");
  const std::string contracts = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/rope/";
  const std::string padded = contracts + "half_split_padded.x.yaml";
  const std::string out = contracts + "half_split.out.yaml";
  std::ofstream(folder / "correct.yaml")
      << "layoutcheck_run: 2\ncase: rope\nkernel:\n  source: " << kRopeProbes
      << "half_split_port.hip\n  entry: rope_port\n  abi: rope_apply_v1\n  launch:\n    grid:\n"
      << "      - ceil_div(H * P, min(wave_size, P) * 4)\n      - batch\n"
      << "    block:\n      - min(wave_size, P)\n      - 4\n"
      << "consumes: {x: " << padded << ", out: " << out << "}\nmodel: {x: " << padded
      << ", out: " << out << "}\n";
  const CaseVerdict correct = probe_port(manifest((folder / "correct.yaml").string()));
  EXPECT_TRUE(correct.clean()) << case_verdict_text(correct);
}

// The ABI's other promises: a port that writes one element past the end of out is named by the
// guard zone after out; one that never writes the last pair of the last head, by the sentinel its
// outputs started with. Both read what the model produces.
TEST(RopePorts, BrokenPromisesAreNamed) {
  LC_REQUIRE_GPU();
  const PortCheck past = layoutcheck::testing::check_shipped_port(
      manifest(kRopeProbes + std::string("out_of_bounds_port.yaml")));
  EXPECT_FALSE(past.clean());
  ASSERT_FALSE(past.findings.empty()) << port_check_text(past);
  EXPECT_EQ(past.findings[0].kind, "out-of-bounds") << port_check_text(past);
  EXPECT_EQ(past.findings[0].buffer, "out");

  const PortCheck unwritten = layoutcheck::testing::check_shipped_port(
      manifest(kRopeProbes + std::string("last_pair_unwritten_port.yaml")));
  EXPECT_FALSE(unwritten.clean());
  ASSERT_FALSE(unwritten.findings.empty()) << port_check_text(unwritten);
  EXPECT_EQ(unwritten.findings[0].kind, "unwritten") << port_check_text(unwritten);
  // H = 8, D = 64: two elements of each of the 2 rows.
  EXPECT_NE(unwritten.findings[0].message.find("4 elements of 'out' were never written"),
            std::string::npos)
      << unwritten.findings[0].message;
}

}  // namespace
}  // namespace layoutcheck::gpu
