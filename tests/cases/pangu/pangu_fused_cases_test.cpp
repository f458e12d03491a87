// The Pangu cases beyond the plain gather and LayerNorm, through the shared probe engine: the
// window reverse is exactly the contract's reverse map (and undoes the gather), LayerNorm fused
// with the gather reads each slot's own token, the residual add + LayerNorm keeps its rounding
// point; each mutant is caught with its own diagnosis, the numeric ones by the cases' value
// probes (a rounding point, a large mean), which random inputs alone do not catch.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cases/pangu/add_layer_norm_case.h"
#include "cases/pangu/layer_norm_case.h"
#include "cases/pangu/layer_norm_gather_case.h"
#include "cases/pangu/window_gather_case.h"
#include "cases/pangu/window_reverse_case.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/platform/fp16.h"
#include "layoutcheck/probe/case_probe.h"

namespace layoutcheck {
namespace {

const std::string kFolder = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/";

CaseLayouts grid_layouts(std::int64_t lat, std::int64_t lon, std::int64_t channels, bool shifted) {
  LoadOptions options;
  options.overrides = {{"Z", 2}, {"LAT", lat}, {"LON", lon}, {"C", channels}};
  CaseLayouts layouts;
  layouts["x"] = load_contract(kFolder + "grid.yaml", options);
  layouts["windows"] =
      load_contract(kFolder + (shifted ? "windows.shifted.yaml" : "windows.yaml"), options);
  return layouts;
}

CaseLayouts row_layouts(const std::vector<std::pair<std::string, std::string>>& files) {
  CaseLayouts layouts;
  for (const auto& [buffer, file] : files) layouts[buffer] = load_contract(kFolder + file, {});
  return layouts;
}

CaseVerdict probe(const Case& subject, CaseRunner& runner, const CaseLayouts& layouts,
                  const std::string& buffer) {
  CaseProbeRequest request;
  request.buffer = buffer;
  request.model = layouts;
  request.claimed = layouts;
  return probe_case(subject, runner, subject.decoders().front(), request);
}

TEST(WindowReverseCase, TheReferenceIsTheReverseMapAndUndoesTheGather) {
  const auto reverse = make_pangu_window_reverse_case();
  const auto gather = make_pangu_window_gather_case();
  for (const bool shifted : {false, true}) {
    SCOPED_TRACE(shifted);
    const CaseLayouts layouts = grid_layouts(7, 13, 2, shifted);
    const auto runner = reverse->reference(layouts);
    const CaseVerdict verdict = probe(*reverse, *runner, layouts, "windows");
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
    // reverse(gather(x)) == x, bit for bit.
    BufferSet buffers = gather->make_buffers(layouts, 2, 3);
    const HostBuffer x = buffers.at("x");
    gather->reference(layouts)->run(buffers);
    buffers.at("x").bytes.assign(x.bytes.size(), 0);
    runner->run(buffers);
    EXPECT_EQ(buffers.at("x").bytes, x.bytes);
  }
}

TEST(WindowReverseCase, EachMutantIsCaught) {
  const auto subject = make_pangu_window_reverse_case();
  const CaseLayouts shifted = grid_layouts(7, 13, 2, true);
  for (const char* name : {"shift_not_undone", "padding_wrong_side"}) {
    SCOPED_TRACE(name);
    const auto mutant = subject->mutant(name, shifted);
    ASSERT_NE(mutant, nullptr);
    const CaseVerdict verdict = probe(*subject, *mutant, shifted, "windows");
    EXPECT_FALSE(verdict.clean());
    EXPECT_GT(verdict.reads.misread, 0) << case_verdict_text(verdict);
  }
}

TEST(LayerNormGatherCase, EachSlotReadsItsOwnTokenAndTheWrongRollDoesNot) {
  const auto subject = make_pangu_layer_norm_gather_case();
  const CaseLayouts layouts = grid_layouts(7, 13, 8, true);
  const auto reference = subject->reference(layouts);
  const CaseVerdict clean = probe(*subject, *reference, layouts, "x");
  EXPECT_TRUE(clean.clean()) << case_verdict_text(clean);
  const auto mutant = subject->mutant("shift_on_wrong_axes", layouts);
  const CaseVerdict caught = probe(*subject, *mutant, layouts, "x");
  EXPECT_FALSE(caught.clean());
  EXPECT_GT(caught.reads.misread, 0) << case_verdict_text(caught);
}

TEST(AddLayerNormCase, TheReferenceIsCleanOnBothInputs) {
  const auto subject = make_pangu_add_layer_norm_case();
  const CaseLayouts layouts = row_layouts({{"residual", "residual.yaml"},
                                           {"branch", "branch.yaml"},
                                           {"residual_out", "residual.out.yaml"},
                                           {"out", "tokens.out.yaml"}});
  const auto reference = subject->reference(layouts);
  for (const char* buffer : {"residual", "branch"}) {
    const CaseVerdict verdict = probe(*subject, *reference, layouts, buffer);
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
}

// add + LayerNorm with fp32 statistics and the centred row kept in fp16 (as half2 arithmetic
// does). Its outputs differ from the reference's by a rounding step here and there, so a probe
// moves an output by one step in one run and none in the other: that is rounding, not a
// dependence, and the verdict must stay clean.
class Fp32StatisticsAddLayerNorm : public CaseRunner {
 public:
  explicit Fp32StatisticsAddLayerNorm(std::int64_t width) : width_(width) {}
  std::string name() const override { return "add-layernorm:fp32-statistics"; }
  void run(BufferSet& buffers) override {
    const HostBuffer& residual = buffers.at("residual");
    const HostBuffer& branch = buffers.at("branch");
    HostBuffer& sum = buffers.at("residual_out");
    HostBuffer& out = buffers.at("out");
    std::vector<float> row(static_cast<std::size_t>(width_));
    for (std::int64_t r = 0; r * width_ < residual.elements(); ++r) {
      float mean = 0, spread = 0;
      for (std::int64_t c = 0; c < width_; ++c) {
        const std::int64_t i = r * width_ + c;
        const float v = fp16_to_float(float_to_fp16(
            static_cast<float>(residual.value(i)) + static_cast<float>(branch.value(i))));
        sum.set_value(i, v);
        row[static_cast<std::size_t>(c)] = v;
        mean += v;
      }
      mean /= static_cast<float>(width_);
      for (float& v : row) {
        v = fp16_to_float(float_to_fp16(v - mean));
        spread += v * v;
      }
      const float inverse = 1.0f / std::sqrt(spread / static_cast<float>(width_) + 1e-5f);
      for (std::int64_t c = 0; c < width_; ++c)
        out.set_value(r * width_ + c, row[static_cast<std::size_t>(c)] * inverse);
    }
  }

 private:
  std::int64_t width_;
};

TEST(AddLayerNormCase, RoundingStepsOfFp32StatisticsAreNoDependenceFinding) {
  const auto subject = make_pangu_add_layer_norm_case();
  const CaseLayouts layouts = row_layouts({{"residual", "residual.yaml"},
                                           {"branch", "branch.yaml"},
                                           {"residual_out", "residual.out.yaml"},
                                           {"out", "tokens.out.yaml"}});
  Fp32StatisticsAddLayerNorm runner(layouts.at("residual").fields.at(0).elements());
  for (const char* buffer : {"residual", "branch"}) {
    SCOPED_TRACE(buffer);
    const CaseVerdict verdict = probe(*subject, runner, layouts, buffer);
    EXPECT_EQ(verdict.dependence_mismatches, 0) << case_verdict_text(verdict);
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
}

TEST(AddLayerNormCase, ResidualInFp32IsCaughtByTheRoundingPointProbeAlone) {
  const auto subject = make_pangu_add_layer_norm_case();
  const CaseLayouts layouts = row_layouts({{"residual", "residual.yaml"},
                                           {"branch", "branch.yaml"},
                                           {"residual_out", "residual.out.yaml"},
                                           {"out", "tokens.out.yaml"}});
  const auto mutant = subject->mutant("residual_in_fp32", layouts);
  ASSERT_NE(mutant, nullptr);
  CaseProbeRequest request;
  request.buffer = "residual";
  request.model = request.claimed = layouts;
  const std::vector<ProbeFinding> findings = run_value_probes(*subject, *mutant, request);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, "rounding-point");
  EXPECT_NE(findings[0].message.find("residual_out rel L2 0.00e+00"), std::string::npos)
      << findings[0].message;  // the residual written is right; the statistics are not
  // The reference passes its own probe.
  EXPECT_TRUE(run_value_probes(*subject, *subject->reference(layouts), request).empty());
}

TEST(LayerNormCase, OnePassStatisticsAreCaughtByTheLargeMeanProbe) {
  const auto subject = make_pangu_layer_norm_case();
  const CaseLayouts layouts = row_layouts({{"x", "tokens.yaml"}, {"out", "tokens.out.yaml"}});
  const auto mutant = subject->mutant("one_pass_statistics", layouts);
  ASSERT_NE(mutant, nullptr);
  const CaseVerdict verdict = probe(*subject, *mutant, layouts, "x");
  EXPECT_FALSE(verdict.clean());
  EXPECT_EQ(verdict.count("large-mean"), 1) << case_verdict_text(verdict);
  EXPECT_NE(verdict.conclusion().find("large-mean: rows of mean 1000"), std::string::npos)
      << verdict.conclusion();
}

}  // namespace
}  // namespace layoutcheck
