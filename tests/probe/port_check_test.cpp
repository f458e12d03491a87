// The port verdict's wording (probe/port_check.h): a misread is named per buffer, the values once
// for the port, and a numeric bug is not dressed up as a layout misread (diagnosis over noise).
#include "layoutcheck/probe/port_check.h"

#include <gtest/gtest.h>

namespace layoutcheck {
namespace {

// A buffer verdict as a numeric bug leaves it: nearly every probe's values off, a few placements
// wrong or ambiguous.
CaseVerdict numeric_bug(std::int64_t misplaced) {
  CaseVerdict verdict;
  verdict.buffer = "state";
  verdict.offsets = 786432;
  verdict.probed = 4096;
  verdict.reads.elements = 786432;
  verdict.reads.misread = misplaced;
  verdict.unresolved = 6;
  verdict.values_checked = true;
  verdict.values_ok = false;
  verdict.add("values", "state", "4090 probes differ from the prediction");
  verdict.finding_counts["values"] = 4090;
  return verdict;
}

CaseVerdict clean_buffer(const std::string& name) {
  CaseVerdict verdict;
  verdict.buffer = name;
  verdict.offsets = verdict.probed = 96;
  verdict.agrees_with_diff = true;
  return verdict;
}

TEST(PortCheck, ANumericBugIsNotCalledAMisread) {
  const CaseVerdict noise = numeric_bug(3);
  EXPECT_TRUE(noise.value_noise());
  EXPECT_FALSE(noise.clean());
  EXPECT_EQ(noise.conclusion().rfind("no layout misread the probes can attribute", 0), 0u)
      << noise.conclusion();

  PortCheck check;
  check.port = "skip_l2norm";
  check.buffers = {clean_buffer("qkvz"), clean_buffer("ba"), noise};
  check.values_checked = true;
  check.values_ok = false;
  EXPECT_FALSE(check.clean());
  EXPECT_EQ(check.conclusion(), "no layout misread, values differ from the reference");
}

TEST(PortCheck, AMisreadIsNamedAndTheValuesOnce) {
  CaseVerdict misread = numeric_bug(4056);  // far more than wrong values would misplace
  EXPECT_FALSE(misread.value_noise());
  PortCheck check;
  check.port = "state_transposed";
  check.buffers = {clean_buffer("qkvz"), misread};
  check.values_checked = true;
  check.values_ok = false;
  const std::string conclusion = check.conclusion();
  EXPECT_EQ(conclusion.rfind("state: layout misread: 4056 of 786432 elements", 0), 0u)
      << conclusion;
  EXPECT_EQ(conclusion.find("values differ"), conclusion.rfind("values differ")) << conclusion;

  CaseVerdict routed = numeric_bug(3);
  routed.add("routing", "state", "value head 1 reads q and k of key head 0 (expected 1)");
  EXPECT_FALSE(routed.value_noise());  // a structural finding is evidence, whatever the values
}

// Findings that follow from another buffer's (GDN's state probes under wrong q/k routing) are
// listed, but the conclusion names the cause, not them.
TEST(PortCheck, SideEffectsAreNotConclusions) {
  CaseVerdict qkvz = clean_buffer("qkvz");
  qkvz.add("routing", "qkvz", "value head 1 reads q and k of key head 0 (expected 0)");
  CaseVerdict state = numeric_bug(400);
  state.side_effect_of = "value heads reading q and k of the wrong key head (qkvz)";
  EXPECT_FALSE(state.clean());
  EXPECT_NE(state.conclusion().find("follow from value heads reading"), std::string::npos);
  PortCheck check;
  check.port = "key_head_modulo";
  check.buffers = {qkvz, state};
  check.values_checked = true;
  check.values_ok = false;
  EXPECT_FALSE(check.clean());
  EXPECT_EQ(check.conclusion(),
            "qkvz: routing: value head 1 reads q and k of key head 0 (expected 0); values differ "
            "from the reference, as the findings above explain");
}

TEST(PortCheck, ASampleIsNamedInTheCleanVerdict) {
  CaseVerdict sampled = clean_buffer("state");
  sampled.offsets = 786432;
  sampled.probed = 4096;
  PortCheck check;
  check.port = "correct";
  check.buffers = {clean_buffer("qkvz"), sampled};
  EXPECT_TRUE(check.clean());
  EXPECT_EQ(check.conclusion(), "clean (state on a random sample of 4096 of 786432 offsets)");
  check.buffers.clear();
  EXPECT_FALSE(check.clean());  // nothing probed is no promise
}

}  // namespace
}  // namespace layoutcheck

#include "cases/builtin_cases.h"
#include "layoutcheck/cases/registry.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

// The ABI's promises beside the reads, on CPU models of broken ports of the RoPE case.
class BrokenPort : public CaseRunner {
 public:
  enum class Fault {
    leaves_one_unwritten,
    varies_between_launches,
    writes_past_the_end,
    ignores_the_row_stride
  };
  BrokenPort(std::unique_ptr<CaseRunner> reference, Fault fault)
      : reference_(std::move(reference)), fault_(fault) {}
  std::string name() const override { return "broken"; }
  void run(BufferSet& buffers) override {
    if (fault_ == Fault::ignores_the_row_stride) {
      // Reads x's memory as packed rows of H*D, whatever stride the ABI passes.
      HostBuffer& x = buffers.at("x");
      const std::int64_t passed = x.row_stride;
      x.row_stride = 16;  // H*D of check_broken's sizes
      reference_->run(buffers);
      x.row_stride = passed;
      return;
    }
    reference_->run(buffers);
    HostBuffer& out = buffers.at("out");
    if (fault_ == Fault::leaves_one_unwritten) out.set_bits(3, 0xFFFF);
    if (fault_ == Fault::varies_between_launches && ++launches_ % 2 == 0)
      out.set_bits(5, out.bits(5) ^ 1);
  }
  std::vector<ProbeFinding> take_findings() override {
    if (fault_ != Fault::writes_past_the_end) return {};
    return {{"out-of-bounds", "out", "12 of the 4096 bytes after 'out' were written"}};
  }

 private:
  std::unique_ptr<CaseRunner> reference_;
  Fault fault_;
  int launches_ = 0;
};

// The RoPE case's half-split layouts at H = 2, D = 8.
CaseLayouts small_half_split_layouts() {
  LoadOptions load;
  load.overrides = {{"H", 2}, {"D", 8}};
  load.ignore_unknown_overrides = true;
  const std::string dir = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/rope/";
  CaseLayouts layouts;
  layouts["x"] = load_contract(dir + "half_split.x.yaml", load);
  layouts["cos_sin"] = load_contract(dir + "cos_sin.yaml", load);
  layouts["out"] = load_contract(dir + "half_split.out.yaml", load);
  return layouts;
}

PortCheck check_broken(BrokenPort::Fault fault) {
  register_builtin_cases();
  const auto rope = CaseRegistry::instance().get("rope");
  const CaseLayouts layouts = small_half_split_layouts();
  CaseProbeRequest request;
  request.model = request.claimed = layouts;
  BrokenPort port(rope->reference(layouts), fault);
  return check_port(*rope, port, "broken", request);
}

TEST(PortPromises, AnOutputElementLeftUnwrittenIsNamed) {
  const PortCheck check = check_broken(BrokenPort::Fault::leaves_one_unwritten);
  EXPECT_FALSE(check.clean());
  ASSERT_FALSE(check.findings.empty());
  EXPECT_EQ(check.findings[0].kind, "unwritten");
  EXPECT_NE(check.findings[0].message.find("1 elements of 'out' were never written"),
            std::string::npos)
      << check.findings[0].message;
  EXPECT_NE(check.findings[0].message.find("offsets 3"), std::string::npos);
}

TEST(PortPromises, TwoLaunchesThatDisagreeAreNonDeterministic) {
  const PortCheck check = check_broken(BrokenPort::Fault::varies_between_launches);
  EXPECT_FALSE(check.clean());
  ASSERT_FALSE(check.findings.empty());
  EXPECT_EQ(check.findings[0].kind, "non-deterministic");
  EXPECT_EQ(check.conclusion().rfind("non-deterministic: 1 elements of 'out' differ", 0), 0u)
      << check.conclusion();
}

TEST(PortPromises, AWritePastABufferLeadsTheDiagnosis) {
  const PortCheck check = check_broken(BrokenPort::Fault::writes_past_the_end);
  EXPECT_FALSE(check.clean());
  EXPECT_EQ(check.conclusion().rfind("out-of-bounds: 12 of the 4096 bytes after 'out'", 0), 0u)
      << check.conclusion();
}

// A kernel that computes its own row pitch passes every probe on a model that packs its rows; the
// same probes with padded rows (the stride the ABI passes, honoured by a correct kernel) name it.
TEST(PortPromises, AKernelComputingItsOwnRowPitchIsNamed) {
  const PortCheck check = check_broken(BrokenPort::Fault::ignores_the_row_stride);
  EXPECT_TRUE(check.buffers.at(0).reads_clean()) << port_check_text(check);  // packed: unseen
  EXPECT_FALSE(check.clean());
  ASSERT_FALSE(check.findings.empty()) << port_check_text(check);
  EXPECT_EQ(check.findings[0].kind, "row-pitch") << port_check_text(check);
  EXPECT_NE(check.findings[0].message.find("padded by 16 elements"), std::string::npos)
      << check.findings[0].message;
}

TEST(PortPromises, AKernelHonouringTheStrideStaysCleanOnPaddedRows) {
  register_builtin_cases();
  const auto rope = CaseRegistry::instance().get("rope");
  const CaseLayouts layouts = small_half_split_layouts();
  CaseProbeRequest request;
  request.model = request.claimed = layouts;
  const auto reference = rope->reference(layouts);
  const PortCheck check = check_port(*rope, *reference, "reference", request);
  EXPECT_TRUE(check.clean()) << port_check_text(check);
}

}  // namespace
}  // namespace layoutcheck
