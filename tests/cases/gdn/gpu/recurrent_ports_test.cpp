// The gdn_recurrent_v1 ports of probes/gdn, compiled at run time and checked as `layoutcheck run`
// checks them (q, k, v and the state probed): the correct port is clean, the port built for the
// state [HV, V, K] misreads exactly the state elements the static diff says, and the mutant that
// routes value heads to the wrong key head is caught. Without a GPU each port still compiles
// (NVRTC and hipRTC need none); the GPU tests skip.
#include <gtest/gtest.h>

#include <string>

#include "gpu/gpu_test_support.h"
#include "gpu/shipped_ports.h"
#include "layoutcheck/gpu/rtc.h"

namespace layoutcheck::gpu {
namespace {

using layoutcheck::testing::check_shipped_port;
using layoutcheck::testing::compile_arch;
using layoutcheck::testing::load_port;

const std::string kGdnProbes = layoutcheck::testing::shipped_probes("gdn");

const CaseVerdict& buffer_verdict(const PortCheck& check, const std::string& buffer) {
  for (const CaseVerdict& verdict : check.buffers)
    if (verdict.buffer == buffer) return verdict;
  throw std::runtime_error("no verdict for " + buffer);
}

TEST(RecurrentPorts, EveryPortCompilesWithoutAGpu) {
  layoutcheck::testing::expect_ports_compile(
      "gdn", {"recurrent_port", "recurrent_hvk_port", "recurrent_key_head_modulo"},
      "gdn_recurrent_port", compile_arch());
}

TEST(RecurrentPorts, CorrectPortIsClean) {
  LC_REQUIRE_GPU();
  const PortCheck check = check_shipped_port(load_port(kGdnProbes + "recurrent_port.yaml"));
  EXPECT_EQ(check.buffers.size(), 4u);
  EXPECT_TRUE(check.clean()) << port_check_text(check);
}

TEST(RecurrentPorts, TransposedStatePortMisreadsExactlyTheStaticDiff) {
  LC_REQUIRE_GPU();
  const PortCheck check = check_shipped_port(load_port(kGdnProbes + "recurrent_hvk_port.yaml"));
  EXPECT_FALSE(check.clean());
  const CaseVerdict& state = buffer_verdict(check, "state");
  EXPECT_GT(state.static_diff.misread, 0);
  EXPECT_EQ(state.reads.misread_mask, state.static_diff.misread_mask) << case_verdict_text(state);
  EXPECT_TRUE(state.agrees_with_diff) << case_verdict_text(state);
  for (const char* buffer : {"q", "k", "v"})
    EXPECT_TRUE(buffer_verdict(check, buffer).clean()) << port_check_text(check);
}

TEST(RecurrentPorts, KeyHeadModuloMutantIsCaught) {
  LC_REQUIRE_GPU();
  const PortCheck check =
      check_shipped_port(load_port(kGdnProbes + "recurrent_key_head_modulo.yaml"));
  EXPECT_FALSE(check.clean());
  EXPECT_FALSE(buffer_verdict(check, "q").clean()) << port_check_text(check);
  EXPECT_FALSE(buffer_verdict(check, "k").clean()) << port_check_text(check);
}

}  // namespace
}  // namespace layoutcheck::gpu
