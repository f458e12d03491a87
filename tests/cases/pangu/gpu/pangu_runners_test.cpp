// The rest of the Pangu kernels through the shared probe engine on the GPU, and the generic path
// against the same references: add + LayerNorm reads each row of both inputs and keeps the fp16
// rounding point (the case's rounding-point value probe runs on the real kernel), LayerNorm fused
// with the gather reads each slot's own token, the reverse is exactly the contract's reverse map;
// the generic kernels (row-per-block LayerNorm, fp16 add, pad + roll + index_select read from the
// same windows contract) give the reference's values and the map's slots; mismatched buffers
// are refused before any launch. Without a GPU these skip with the reason.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cases/pangu/add_layer_norm_case.h"
#include "cases/pangu/framework_window.h"
#include "cases/pangu/gpu/pangu_gpu_runners.h"
#include "cases/pangu/layer_norm.h"
#include "cases/pangu/layer_norm_gather_case.h"
#include "cases/pangu/window_reverse_case.h"
#include "gpu/gpu_test_support.h"
#include "kernels/pangu/pangu_generic_kernels.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/probe/case_probe.h"

namespace layoutcheck::gpu {
namespace {

using Halves = std::vector<std::uint16_t>;
const std::string kFolder = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/";

CaseLayouts load(const std::vector<std::pair<std::string, std::string>>& files,
                 const std::vector<std::pair<std::string, std::int64_t>>& sizes) {
  LoadOptions options;
  options.overrides = sizes;
  CaseLayouts layouts;
  for (const auto& [buffer, file] : files) layouts[buffer] = load_contract(kFolder + file, options);
  return layouts;
}

CaseVerdict probe(const Case& subject, CaseRunner& runner, const CaseLayouts& layouts,
                  const std::string& buffer) {
  CaseProbeRequest request;
  request.buffer = buffer;
  request.model = request.claimed = layouts;
  request.max_probes = 1024;  // a seeded sample: each probe is a device round trip
  return probe_case(subject, runner, subject.decoders().front(), request);
}

TEST(PanguGpuRunners, AddLayerNormReadsItsRowsAndKeepsTheRoundingPoint) {
  LC_REQUIRE_GPU();
  const auto subject = make_pangu_add_layer_norm_case();
  const CaseLayouts layouts = load({{"residual", "residual.yaml"},
                                    {"branch", "branch.yaml"},
                                    {"residual_out", "residual.out.yaml"},
                                    {"out", "tokens.out.yaml"}},
                                   {{"C", 384}});
  const auto runner = make_gpu_add_layer_norm(layouts);
  // The rounding point on the real kernel: its branch below half an fp16 step of the residual.
  CaseProbeRequest request;
  request.buffer = "residual";
  request.model = request.claimed = layouts;
  EXPECT_TRUE(run_value_probes(*subject, *runner, request).empty());
  // Each row of both inputs read as its own. Over a random residual a branch probe may move one
  // output by a rounding step on one side only: the decoder matches responses up to rounding.
  for (const char* buffer : {"residual", "branch"}) {
    SCOPED_TRACE(buffer);
    const CaseVerdict verdict = probe(*subject, *runner, layouts, buffer);
    EXPECT_EQ(verdict.reads.misread, 0) << case_verdict_text(verdict);
    EXPECT_EQ(verdict.dependence_mismatches, 0) << case_verdict_text(verdict);
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
  // Rows of 192 beside rows of 384: refused when the runner is made.
  CaseLayouts mismatched = layouts;
  mismatched["branch"] = load({{"branch", "branch.yaml"}}, {{"C", 192}}).at("branch");
  EXPECT_THROW(make_gpu_add_layer_norm(mismatched), InputError);
}

TEST(PanguGpuRunners, LayerNormGatherAndTheReverseAreTheContractsMaps) {
  LC_REQUIRE_GPU();
  for (const std::int64_t width : {192, 384, 768}) {  // groups of 8, 16 and 32 lanes
    SCOPED_TRACE(width);
    const CaseLayouts layouts = load({{"x", "grid.yaml"}, {"windows", "windows.shifted.yaml"}},
                                     {{"Z", 2}, {"LAT", 7}, {"LON", 13}, {"C", width}});
    const auto runner = make_gpu_layer_norm_gather(layouts);
    const CaseVerdict verdict = probe(*make_pangu_layer_norm_gather_case(), *runner, layouts, "x");
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
  {
    const CaseLayouts layouts = load({{"x", "grid.yaml"}, {"windows", "windows.shifted.yaml"}},
                                     {{"LAT", 46}, {"LON", 90}, {"C", 8}});
    const auto runner = make_gpu_window_reverse(layouts);
    const CaseVerdict verdict =
        probe(*make_pangu_window_reverse_case(), *runner, layouts, "windows");
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
}

Halves random_halves(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Halves values(count);
  for (auto& value : values)
    value = float_to_fp16(4.0f * (static_cast<float>(rng() >> 40) * 0x1.0p-24f - 0.5f));
  return values;
}

TEST(PanguGenericPath, GivesTheReferencesValuesAndTheMapsSlots) {
  LC_REQUIRE_GPU();
  Stream stream;
  // LayerNorm of any width, one block per row; the fp16 add rounds as the reference does.
  for (const std::int64_t width : {96, 192, 384, 1000}) {
    SCOPED_TRACE(width);
    const std::int64_t rows = 257;
    const Halves x = random_halves(static_cast<std::size_t>(rows * width), 1),
                 y = random_halves(x.size(), 2);
    DeviceBuffer<std::uint16_t> a{std::span<const std::uint16_t>(x)},
        b{std::span<const std::uint16_t>(y)}, sum(x.size()), out(x.size());
    kernels::generic_add(a.data(), b.data(), sum.data(), static_cast<std::int64_t>(x.size()),
                         stream.get());
    kernels::generic_layer_norm(sum.data(), out.data(), rows, width, stream.get());
    stream.synchronize();
    const pangu::AddLayerNormRows want_rows = pangu::add_layer_norm_rows(x, y, width);
    const Halves& want_sum = want_rows.residual_out;
    const Halves& want = want_rows.out;
    EXPECT_EQ(sum.to_host(), want_sum);
    const Halves got = out.to_host();
    std::int64_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const float g = fp16_to_float(got[i]), w = fp16_to_float(want[i]);
      bad += !(std::abs(g - w) <= std::max(2.0f * std::abs(w) / 1024.0f, 0x1.0p-12f));
    }
    EXPECT_EQ(bad, 0);
  }
  // pad + roll + index_select by the plan read from the contract = the gather by its map.
  for (const auto& [lat, lon] : std::vector<std::pair<std::int64_t, std::int64_t>>{{91, 180},
                                                                                  {46, 90}}) {
    SCOPED_TRACE(lat);
    const Contract windows = load({{"windows", "windows.shifted.yaml"}},
                                  {{"LAT", lat}, {"LON", lon}, {"C", 8}})
                                 .at("windows");
    const GatherMap map = make_gather_map(windows);
    const pangu::FrameworkWindowPlan plan = pangu::framework_window_plan(windows);
    const Halves x = random_halves(static_cast<std::size_t>(map.tokens * 8), 3);
    const auto slots = static_cast<std::int64_t>(map.slots.size());
    DeviceBuffer<std::uint16_t> in{std::span<const std::uint16_t>(x)},
        padded(static_cast<std::size_t>(slots * 8)), rolled(padded.size()), out(padded.size());
    DeviceBuffer<std::int64_t> index{std::span<const std::int64_t>(plan.index)};
    const kernels::GridShape grid{plan.grid[0], plan.grid[1], plan.grid[2], 8};
    const kernels::GridShape padded_grid{plan.padded[0], plan.padded[1], plan.padded[2], 8};
    kernels::generic_pad(in.data(), grid, padded.data(), padded_grid, plan.before.data(),
                         stream.get());
    kernels::generic_roll(padded.data(), rolled.data(), padded_grid, plan.shift.data(),
                          stream.get());
    kernels::generic_index_select(rolled.data(), index.data(), out.data(), slots, 8,
                                  stream.get());
    stream.synchronize();
    Halves want(padded.size(), 0);
    for (std::int64_t s = 0; s < slots; ++s)
      if (map.slots[static_cast<std::size_t>(s)] >= 0)
        std::copy_n(x.begin() + map.slots[static_cast<std::size_t>(s)] * 8, 8,
                    want.begin() + s * 8);
    EXPECT_EQ(out.to_host(), want);
  }
}

}  // namespace
}  // namespace layoutcheck::gpu
