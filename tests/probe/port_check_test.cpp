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
            "qkvz: 1 routing findings; values differ from the reference, as the findings above "
            "explain");
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
