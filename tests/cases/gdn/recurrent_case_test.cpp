// The gdn-recurrent case: its reference against the recurrence written out on plain [HV][K][V]
// arrays, a kernel claiming the other state order misreading exactly the static diff's set, and
// its mutants never clean. Shapes with odd sizes beside powers of two.
#include "cases/gdn/recurrent_case.h"

#include <gtest/gtest.h>

#include <cmath>

#include "cases/builtin_cases.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/probe/case_probe.h"
#include "layoutcheck/probe/port_check.h"

namespace layoutcheck {
namespace {

struct Shape {
  std::int64_t H, HV, K, V;
};

class GdnRecurrent : public ::testing::TestWithParam<Shape> {
 protected:
  CaseLayouts layouts(const std::string& state) const {
    const Shape s = GetParam();
    LoadOptions load;
    load.overrides = {{"H", s.H}, {"HV", s.HV}, {"K", s.K}, {"V", s.V}};
    const std::string dir = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/";
    CaseLayouts result;
    for (const char* name : {"q", "k", "v"})
      result[name] = load_contract(dir + "recurrent." + name + ".yaml", load);
    result["state"] = load_contract(dir + "state." + state + ".yaml", load);
    result["out"] = load_contract(dir + "gdn_out.yaml", load);
    return result;
  }
  std::shared_ptr<const Case> subject() const {
    register_builtin_cases();
    return CaseRegistry::instance().get("gdn-recurrent");
  }
};

INSTANTIATE_TEST_SUITE_P(Shapes, GdnRecurrent,
                         ::testing::Values(Shape{1, 1, 4, 4}, Shape{2, 6, 8, 8}, Shape{3, 3, 5, 7},
                                           Shape{2, 4, 16, 6}),
                         [](const auto& info) {
                           const Shape& s = info.param;
                           return std::to_string(s.H) + "x" + std::to_string(s.HV) + "x" +
                                  std::to_string(s.K) + "x" + std::to_string(s.V);
                         });

TEST_P(GdnRecurrent, ReferenceIsTheRecurrence) {
  const Shape s = GetParam();
  const CaseLayouts hkv = layouts("hkv");
  BufferSet buffers = subject()->make_buffers(hkv, 2, 7);
  const BufferSet before = buffers;
  subject()->reference(hkv)->run(buffers);
  const auto read = [](const BufferSet& set, const char* name, std::int64_t i) {
    return set.at(name).value(i);
  };
  for (std::int64_t t = 0; t < 2; ++t)
    for (std::int64_t hv = 0; hv < s.HV; ++hv) {
      const std::int64_t h = hv / (s.HV / s.H);
      const double decay = std::exp(read(before, "g", t * s.HV + hv));
      const double beta = read(before, "beta", t * s.HV + hv);
      // Packed [HV][K][V] rows, [H][K] and [HV][V]: the contracts above are all packed.
      std::vector<double> S(static_cast<std::size_t>(s.K * s.V));
      for (std::int64_t i = 0; i < s.K * s.V; ++i)
        S[i] = read(before, "state", t * s.HV * s.K * s.V + hv * s.K * s.V + i) * decay;
      for (std::int64_t j = 0; j < s.V; ++j) {
        double kv = 0;
        for (std::int64_t i = 0; i < s.K; ++i)
          kv += S[i * s.V + j] * read(before, "k", t * s.H * s.K + h * s.K + i);
        const double u = beta * (read(before, "v", t * s.HV * s.V + hv * s.V + j) - kv);
        for (std::int64_t i = 0; i < s.K; ++i)
          S[i * s.V + j] += read(before, "k", t * s.H * s.K + h * s.K + i) * u;
      }
      for (std::int64_t j = 0; j < s.V; ++j) {
        double o = 0;
        for (std::int64_t i = 0; i < s.K; ++i)
          o += S[i * s.V + j] * read(before, "q", t * s.H * s.K + h * s.K + i);
        o /= std::sqrt(static_cast<double>(s.K));
        const double got = read(buffers, "out", t * s.HV * s.V + hv * s.V + j);
        EXPECT_NEAR(got, o, 1e-2 * std::abs(o) + 1e-3) << "t " << t << " hv " << hv << " j " << j;
      }
      for (std::int64_t i = 0; i < s.K * s.V; i += 3)
        EXPECT_NEAR(read(buffers, "state", t * s.HV * s.K * s.V + hv * s.K * s.V + i), S[i],
                    1e-5 * std::abs(S[i]) + 1e-6);
    }
}

TEST_P(GdnRecurrent, OtherStateOrderMisreadsExactlyWhatTheDiffSays) {
  CaseProbeRequest request{"state", layouts("hkv"), layouts("hvk")};
  const auto kernel = subject()->reference(request.claimed);
  const CaseVerdict verdict = probe_case(*subject(), *kernel, kDependenceDecoder, request);
  EXPECT_EQ(verdict.reads.misread_mask, verdict.static_diff.misread_mask);
  EXPECT_TRUE(verdict.agrees_with_diff) << case_verdict_text(verdict);
  EXPECT_EQ(verdict.clean(), verdict.static_diff.misread == 0);
}

TEST_P(GdnRecurrent, MatchingKernelIsCleanAndMutantsAreNot) {
  const Shape s = GetParam();
  CaseProbeRequest request{"q", layouts("hkv"), layouts("hkv")};
  const auto kernel = subject()->reference(request.claimed);
  EXPECT_TRUE(probe_case(*subject(), *kernel, kDependenceDecoder, request).clean());
  for (const auto& [name, description] : subject()->mutants()) {
    if (name == "state_transposed" && s.K != s.V) continue;
    if (name == "key_head_modulo" && s.H == s.HV) continue;  // hv % H == hv / G: no bug to see
    if (name == "state_transposed" && s.K == 1) continue;
    SCOPED_TRACE(name);
    const auto broken = subject()->mutant(name, request.claimed);
    ASSERT_NE(broken, nullptr);
    EXPECT_FALSE(probe_case(*subject(), *broken, kDependenceDecoder, request).clean());
  }
}

// What `layoutcheck run` does with a port: every buffer a port could misread is probed, so a
// kernel whose q, k and v are right and whose state order is not is not clean.
TEST_P(GdnRecurrent, PortCheckProbesEveryBufferAPortCouldMisread) {
  CaseProbeRequest request;
  request.model = layouts("hkv");
  request.claimed = layouts("hvk");
  const auto kernel = subject()->reference(request.claimed);
  const PortCheck check = check_port(*subject(), *kernel, "hvk", request);
  ASSERT_EQ(check.buffers.size(), 4u);
  for (const CaseVerdict& verdict : check.buffers) {
    SCOPED_TRACE(verdict.buffer);
    if (verdict.buffer == "state") {
      EXPECT_EQ(verdict.reads.misread_mask, verdict.static_diff.misread_mask);
      EXPECT_TRUE(verdict.agrees_with_diff) << case_verdict_text(verdict);
    } else {
      EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
    }
  }
  EXPECT_EQ(check.clean(), check.buffers[3].static_diff.misread == 0) << port_check_text(check);

  request.claimed = request.model;
  const auto matching = subject()->reference(request.claimed);
  EXPECT_TRUE(check_port(*subject(), *matching, "hkv", request).clean());
  const Shape s = GetParam();
  if (s.H != s.HV) {
    const auto modulo = subject()->mutant("key_head_modulo", request.claimed);
    const PortCheck broken = check_port(*subject(), *modulo, "modulo", request);
    EXPECT_FALSE(broken.clean());
    EXPECT_FALSE(broken.buffers[0].clean()) << port_check_text(broken);  // q
  }
}

}  // namespace
}  // namespace layoutcheck
