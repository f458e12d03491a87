// The generic decoders on any case: the dependence decoder on the rope case (a computing
// operator) and on GDN's ba buffer, the data-movement decoder on a gather case defined here; each
// recovers exactly the misread set the static diff names, says clean only when everything was
// verified, and refuses what it cannot decode.
#include "layoutcheck/probe/case_probe.h"

#include <gtest/gtest.h>

#include <string>

#include "cases/builtin_cases.h"
#include "cases/gdn/gdn_case.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

std::string contract_path(const std::string& file) {
  return std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/" + file;
}

LoadOptions sized(std::vector<std::pair<std::string, std::int64_t>> sizes) {
  LoadOptions options;
  options.overrides = std::move(sizes);
  options.ignore_unknown_overrides = true;
  return options;
}

CaseLayouts rope_layouts(const std::string& x, const std::string& out, const LoadOptions& load) {
  CaseLayouts layouts;
  layouts["x"] = load_contract(contract_path("rope/" + x + ".x.yaml"), load);
  layouts["cos_sin"] = load_contract(contract_path("rope/cos_sin.yaml"), load);
  layouts["out"] = load_contract(contract_path("rope/" + out + ".out.yaml"), load);
  return layouts;
}

std::shared_ptr<const Case> rope() {
  register_builtin_cases();
  return CaseRegistry::instance().get("rope");
}

struct RopeShape {
  std::int64_t heads, head_dim, rows;
};

class DependenceOnRope : public ::testing::TestWithParam<RopeShape> {};

INSTANTIATE_TEST_SUITE_P(Shapes, DependenceOnRope,
                         ::testing::Values(RopeShape{8, 64, 2}, RopeShape{3, 10, 3},
                                           RopeShape{1, 6, 1}, RopeShape{5, 14, 2}),
                         [](const auto& info) {
                           return std::to_string(info.param.heads) + "x" +
                                  std::to_string(info.param.head_dim) + "_rows" +
                                  std::to_string(info.param.rows);
                         });

// An interleaved (GPT-J) kernel fed half-split buffers: the probes name the static diff's set.
TEST_P(DependenceOnRope, InterleavedKernelMisreadsExactlyWhatTheDiffSays) {
  const RopeShape shape = GetParam();
  const LoadOptions load = sized({{"H", shape.heads}, {"D", shape.head_dim}});
  CaseProbeRequest request{"x", rope_layouts("half_split", "half_split", load),
                           rope_layouts("interleaved", "interleaved", load)};
  request.rows = shape.rows;
  const auto kernel = rope()->reference(request.claimed);
  const CaseVerdict verdict = probe_case(*rope(), *kernel, kDependenceDecoder, request);
  EXPECT_GT(verdict.static_diff.misread, 0);
  EXPECT_EQ(verdict.reads.misread, verdict.static_diff.misread);
  EXPECT_EQ(verdict.reads.misread_mask, verdict.static_diff.misread_mask);
  EXPECT_TRUE(verdict.agrees_with_diff);
  EXPECT_EQ(verdict.unresolved, 0);
  EXPECT_EQ(verdict.row_stride_findings, 0);
  EXPECT_FALSE(verdict.clean());
  EXPECT_NE(verdict.conclusion().find("layout misread"), std::string::npos) << verdict.conclusion();
  // It writes its output interleaved too, where the model reads half-split: said as such.
  EXPECT_EQ(verdict.outputs_misplaced, verdict.static_diff.misread);
  EXPECT_NE(
      case_verdict_text(verdict).find("output-layout: 'out' is written as rope.interleaved.out"),
      std::string::npos)
      << case_verdict_text(verdict);
}

// The output's own layout alone: a kernel that reads x right but writes out interleaved.
TEST_P(DependenceOnRope, OutputWrittenInAnotherLayoutIsNamed) {
  const RopeShape shape = GetParam();
  const LoadOptions load = sized({{"H", shape.heads}, {"D", shape.head_dim}});
  CaseProbeRequest request{"x", rope_layouts("half_split", "half_split", load),
                           rope_layouts("half_split", "interleaved", load)};
  request.rows = shape.rows;
  const auto kernel = rope()->reference(request.claimed);
  const CaseVerdict verdict = probe_case(*rope(), *kernel, kDependenceDecoder, request);
  EXPECT_EQ(verdict.reads.misread, 0);  // x is read right
  EXPECT_TRUE(verdict.agrees_with_diff);
  if (shape.head_dim > 2) {
    EXPECT_GT(verdict.outputs_misplaced, 0);
    EXPECT_FALSE(verdict.clean());
    EXPECT_NE(verdict.conclusion().find("output written in another layout"), std::string::npos);
  } else {
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);  // one pair: the layouts agree
  }
}

// A kernel built for the model's layout is clean, values included.
TEST_P(DependenceOnRope, MatchingKernelIsClean) {
  const RopeShape shape = GetParam();
  const LoadOptions load = sized({{"H", shape.heads}, {"D", shape.head_dim}});
  CaseProbeRequest request{"x", rope_layouts("half_split", "half_split", load),
                           rope_layouts("half_split", "half_split", load)};
  request.rows = shape.rows;
  const auto kernel = rope()->reference(request.claimed);
  const CaseVerdict verdict = probe_case(*rope(), *kernel, kDependenceDecoder, request);
  EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  EXPECT_EQ(verdict.probed, verdict.offsets);
  EXPECT_TRUE(verdict.values_checked);
}

// A right-layout kernel with wrong values is never clean.
TEST(DependenceOnRopeMutants, WrongValuesAreAFinding) {
  const LoadOptions load = sized({{"H", 2}, {"D", 8}});
  CaseProbeRequest request{"x", rope_layouts("half_split", "half_split", load),
                           rope_layouts("half_split", "half_split", load)};
  for (const auto& [name, description] : rope()->mutants()) {
    SCOPED_TRACE(name);
    const auto kernel = rope()->mutant(name, request.claimed);
    ASSERT_NE(kernel, nullptr);
    const CaseVerdict verdict = probe_case(*rope(), *kernel, kDependenceDecoder, request);
    EXPECT_FALSE(verdict.clean());
    EXPECT_FALSE(verdict.values_ok) << verdict.values_detail;
  }
}

// A sample says what it covered: the elements it did not look at are placed by the claim and
// counted, and the verdict says "on a random sample"; a misread inside the sample is still found.
TEST(DependenceSampling, ASampleSaysWhatItCovered) {
  const LoadOptions load = sized({{"H", 2}, {"D", 8}});
  CaseProbeRequest request{"x", rope_layouts("half_split", "half_split", load),
                           rope_layouts("half_split", "half_split", load)};
  request.max_probes = 10;
  const auto kernel = rope()->reference(request.claimed);
  const CaseVerdict verdict = probe_case(*rope(), *kernel, kDependenceDecoder, request);
  EXPECT_EQ(verdict.probed, 10);
  EXPECT_TRUE(verdict.sampled());
  EXPECT_GT(verdict.placed_by_claim, 0);
  EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  EXPECT_NE(verdict.conclusion().find("on a random sample: 10 of 32 offsets"), std::string::npos)
      << verdict.conclusion();
  EXPECT_NE(case_verdict_text(verdict).find("placed by the kernel's claim"), std::string::npos);

  CaseProbeRequest wrong{"x", rope_layouts("half_split", "half_split", load),
                         rope_layouts("interleaved", "half_split", load)};
  wrong.max_probes = 10;
  const auto interleaved = rope()->reference(wrong.claimed);
  const CaseVerdict caught = probe_case(*rope(), *interleaved, kDependenceDecoder, wrong);
  EXPECT_FALSE(caught.clean());
  EXPECT_GT(caught.reads.misread, 0) << case_verdict_text(caught);
}

// The same decoder on GDN's ba buffer (a Qwen3-Next kernel fed Qwen3.5 rows), no GDN knowledge.
TEST(DependenceOnGdn, InterleavedBaMisreadsExactlyWhatTheDiffSays) {
  register_builtin_cases();
  const auto gdn = CaseRegistry::instance().get("gdn");
  const LoadOptions load = sized({{"H", 2}, {"HV", 6}, {"K", 8}, {"V", 8}});
  const auto layouts = [&](const std::string& qkvz_ba) {
    CaseLayouts result;
    result["qkvz"] = load_contract(contract_path("gdn/" + qkvz_ba + ".qkvz.yaml"), load);
    result["ba"] = load_contract(contract_path("gdn/" + qkvz_ba + ".ba.yaml"), load);
    result["state"] = load_contract(contract_path("gdn/state.hkv.yaml"), load);
    return result;
  };
  // Only ba is read the Qwen3-Next way: the other buffers as the model writes them (--with).
  CaseLayouts claimed = layouts("qwen3_5");
  claimed["ba"] = layouts("qwen3_next")["ba"];
  CaseProbeRequest request{"ba", layouts("qwen3_5"), claimed};
  const auto kernel = gdn->reference(request.claimed);
  const CaseVerdict verdict = probe_case(*gdn, *kernel, kDependenceDecoder, request);
  EXPECT_GT(verdict.static_diff.misread, 0);
  EXPECT_EQ(verdict.reads.misread_mask, verdict.static_diff.misread_mask);
  EXPECT_TRUE(verdict.agrees_with_diff) << case_verdict_text(verdict);
}

// ---- data movement: a gather case of the test's own ----

// out[token] = x[token] field by field: a pure copy through both buffers' contracts, so a kernel
// built for another x layout copies from the wrong offsets.
class CopyCase : public Case {
 public:
  std::string name() const override { return "copy"; }
  std::string summary() const override { return "copies every element of x into out"; }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, DType::bf16, "", "input rows"},
            {"out", BufferRole::output, DType::bf16, "", "output rows, one field, packed"}};
  }
  std::vector<AbiSpec> abis() const override { return {}; }
  std::vector<std::string> decoders() const override {
    return {std::string(kDataMovementDecoder), std::string(kDependenceDecoder)};
  }
  std::string default_probe_buffer() const override { return "x"; }
  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    BufferSet buffers;
    HostBuffer& x = buffers.add(make_host_buffer("x", layouts.at("x"), batch));
    for (std::int64_t i = 0; i < x.elements(); ++i)
      x.set_value(i, static_cast<double>((i * 7 + static_cast<std::int64_t>(seed)) % 13) - 6);
    buffers.add(make_host_buffer("out", DType::bf16, batch * layouts.at("x").elements()));
    buffers.at("out").rows = batch;
    buffers.at("out").row_stride = layouts.at("x").elements();
    return buffers;
  }
  class Runner : public CaseRunner {
   public:
    explicit Runner(Contract x) : x_(std::move(x)) {}
    std::string name() const override { return "copy through " + x_.name; }
    void run(BufferSet& buffers) override {
      const HostBuffer& x = buffers.at("x");
      HostBuffer& out = buffers.at("out");
      for (std::int64_t row = 0; row < out.rows; ++row) {
        std::int64_t at = row * out.row_stride;
        for (const Field& field : x_.fields)
          field.for_each_offset([&](std::int64_t, std::int64_t offset) {
            out.set_bits(at++, x.bits(row * x.row_stride + offset));
          });
      }
    }

   private:
    Contract x_;
  };
  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return std::make_unique<Runner>(layouts.at("x"));
  }
  void validate_layout(std::string_view, const Contract&) const override {}
};

TEST(DataMovement, KernelForAnotherLayoutMisreadsExactlyWhatTheDiffSays) {
  const CopyCase copy;
  const LoadOptions load = sized({{"H", 2}, {"D", 6}});
  CaseLayouts model, claimed;
  model["x"] = load_contract(contract_path("rope/half_split.x.yaml"), load);
  claimed["x"] = load_contract(contract_path("rope/interleaved.x.yaml"), load);
  CaseProbeRequest request{"x", model, claimed};
  request.rows = 3;
  CopyCase::Runner kernel(claimed["x"]);
  const CaseVerdict verdict = probe_case(copy, kernel, kDataMovementDecoder, request);
  EXPECT_GT(verdict.static_diff.misread, 0);
  EXPECT_EQ(verdict.reads.misread_mask, verdict.static_diff.misread_mask);
  EXPECT_TRUE(verdict.agrees_with_diff) << case_verdict_text(verdict);
  EXPECT_EQ(verdict.row_stride_findings, 0);
  // ceil(log2 of 3 rows x 12 elements) bit planes plus the two presence runs, plus the values.
  EXPECT_EQ(verdict.runs, 2 + 6 + 1);

  CopyCase::Runner right(model["x"]);
  request.claimed = model;
  const CaseVerdict right_verdict = probe_case(copy, right, kDataMovementDecoder, request);
  EXPECT_TRUE(right_verdict.clean()) << case_verdict_text(right_verdict);
}

TEST(CaseProbeRefuses, WhatItCannotDecode) {
  const LoadOptions load = sized({{"H", 2}, {"D", 8}});
  CaseProbeRequest request{"x", rope_layouts("half_split", "half_split", load),
                           rope_layouts("half_split", "half_split", load)};
  const auto kernel = rope()->reference(request.claimed);
  // rope computes: its outputs are no copies of x.
  EXPECT_THROW(probe_case(*rope(), *kernel, kDataMovementDecoder, request), InputError);
  EXPECT_THROW(probe_case(*rope(), *kernel, "bogus", request), InputError);
  request.buffer = "out";  // written, not read
  EXPECT_THROW(probe_case(*rope(), *kernel, kDependenceDecoder, request), InputError);
  request.buffer = "x";
  request.claimed.erase("x");
  EXPECT_THROW(probe_case(*rope(), *kernel, kDependenceDecoder, request), InputError);
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// A kernel claiming [HV,V,K] fed an [HV,K,V] state: the dependence decoder names every transposed
// element (the contracts call the buffer ssm_state; the case calls it state).
TEST(DependenceOnGdn, TransposedStateMisreadsExactlyWhatTheDiffSays) {
  register_builtin_cases();
  const auto gdn = CaseRegistry::instance().get("gdn");
  const LoadOptions load = sized({{"H", 1}, {"HV", 2}, {"K", 4}, {"V", 4}});
  const Contract hkv = load_contract(contract_path("gdn/state.hkv.yaml"), load);
  EXPECT_EQ(gdn->buffer_described_by(hkv), "state");
  CaseLayouts model;
  model["qkvz"] = load_contract(contract_path("gdn/qwen3_5.qkvz.yaml"), load);
  model["ba"] = load_contract(contract_path("gdn/qwen3_5.ba.yaml"), load);
  model["state"] = hkv;
  CaseLayouts claimed = model;
  claimed["state"] = load_contract(contract_path("gdn/state.hvk.yaml"), load);
  CaseProbeRequest request{"state", model, claimed};
  const auto kernel = gdn->reference(claimed);
  const CaseVerdict verdict = probe_case(*gdn, *kernel, kDependenceDecoder, request);
  EXPECT_EQ(verdict.static_diff.misread, 24);  // 2 heads x (16 - 4 on the diagonal)
  EXPECT_EQ(verdict.reads.misread_mask, verdict.static_diff.misread_mask);
  EXPECT_TRUE(verdict.agrees_with_diff) << case_verdict_text(verdict);
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// The isolation of a probe: the other buffers reach the kernel as it claims them, element for
// element the same contents, the padding zero.
TEST(RelaidOut, KeepsEveryElementAndZeroesThePadding) {
  const LoadOptions load = sized({{"H", 2}, {"HV", 4}, {"K", 3}, {"V", 5}});
  const Contract hkv = load_contract(contract_path("gdn/state.hkv.yaml"), load);
  const Contract hvk = load_contract(contract_path("gdn/state.hvk.yaml"), load);
  HostBuffer state = make_host_buffer("state", hkv, 2);
  for (std::int64_t i = 0; i < state.elements(); ++i) state.set_value(i, static_cast<double>(i));
  const HostBuffer moved = relaid_out(state, hkv, hvk);
  ASSERT_EQ(moved.elements(), state.elements());
  for (std::int64_t row = 0; row < 2; ++row)
    for (std::int64_t hv = 0; hv < 4; ++hv)
      for (std::int64_t k = 0; k < 3; ++k)
        for (std::int64_t v = 0; v < 5; ++v)
          EXPECT_EQ(moved.value(row * moved.row_stride + (hv * 5 + v) * 3 + k),
                    state.value(row * state.row_stride + (hv * 3 + k) * 5 + v));
  EXPECT_EQ(relaid_out(moved, hvk, hkv).bytes, state.bytes);

  const LoadOptions rope_sizes = sized({{"H", 2}, {"D", 4}});
  const Contract packed = load_contract(contract_path("rope/half_split.x.yaml"), rope_sizes);
  const Contract padded = load_contract(contract_path("rope/half_split_padded.x.yaml"), rope_sizes);
  HostBuffer x = make_host_buffer("x", packed, 3);
  for (std::int64_t i = 0; i < x.elements(); ++i) x.set_value(i, 1.0 + static_cast<double>(i));
  const HostBuffer wide = relaid_out(x, packed, padded);
  EXPECT_GT(wide.row_stride, x.row_stride);
  std::int64_t zeros = 0;
  for (std::int64_t i = 0; i < wide.elements(); ++i) zeros += wide.value(i) == 0.0;
  EXPECT_EQ(zeros, wide.elements() - x.elements());
  EXPECT_EQ(relaid_out(wide, padded, packed).bytes, x.bytes);
}

}  // namespace
}  // namespace layoutcheck

namespace layoutcheck {
namespace {

// A padded producer against a packed consumer: `diff` says the rows step differently (exit 1), so
// the probe must not say clean, whatever the values.
TEST(ProbeAndDiffAgree, RowsSteppedDifferentlyAreNeverClean) {
  const LoadOptions load = sized({{"H", 2}, {"D", 8}});
  CaseLayouts model = rope_layouts("half_split", "half_split", load);
  model["x"] = load_contract(contract_path("rope/half_split_padded.x.yaml"), load);
  const CaseProbeRequest request{"x", model, rope_layouts("half_split", "half_split", load)};
  const auto kernel = rope()->reference(request.claimed);
  const CaseVerdict verdict = probe_case(*rope(), *kernel, kDependenceDecoder, request);
  EXPECT_FALSE(verdict.static_diff.row_mismatches.empty());
  EXPECT_FALSE(verdict.clean()) << case_verdict_text(verdict);
  EXPECT_NE(verdict.conclusion().find("disagree"), std::string::npos) << verdict.conclusion();
}

}  // namespace
}  // namespace layoutcheck
