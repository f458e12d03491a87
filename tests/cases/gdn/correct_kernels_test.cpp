// Kernels that read exactly what they claim give zero findings, over many seeds, shapes, layouts
// and buffers: the probes never invent a misread.
#include <gtest/gtest.h>

#include "cases/gdn/reference_runner.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/probe/probe_sweep.h"
#include "cases/gdn/probe/gdn_case_verdict.h"

namespace layoutcheck {
namespace {

struct SeedSweep {
  const char* name;
  GdnShape shape;
  int seeds;
};

class CorrectKernels : public ::testing::TestWithParam<SeedSweep> {};

TEST_P(CorrectKernels, GiveZeroFindingsOverManySeeds) {
  const GdnShape shape = GetParam().shape;
  for (bool interleaved : {false, true})
    for (StateOrder order : {StateOrder::hkv, StateOrder::hvk}) {
      const GdnLayouts layouts =
          interleaved ? interleaved_gdn_layouts(shape, order) : flat_gdn_layouts(shape, order);
      ReferenceRunner kernel(shape, layouts, 1);
      for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state})
        for (int seed = 1; seed <= GetParam().seeds; ++seed) {
          SCOPED_TRACE(::testing::Message() << layouts.qkvz.name << " " << layouts.state.name << " "
                                          << gdn_buffer_name(buffer) << " seed " << seed);
          ProbeOptions options;
          options.seed = static_cast<std::uint64_t>(seed);
          const ProbeVerdict verdict = probe_gdn_runner(
              kernel, ProbeTarget{shape, buffer, layout_of(layouts, buffer), layouts}, options);
          ASSERT_TRUE(verdict.clean()) << case_verdict_text(gdn_case_verdict(verdict));
          EXPECT_EQ(verdict.value_deviations, 0);
          EXPECT_TRUE(verdict.never_read.empty());
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CorrectKernels,
                         ::testing::Values(SeedSweep{"odd", {3, 9, 5, 7, 4}, 12},
                                         SeedSweep{"one_value_head_per_key_head", {4, 4, 6, 3, 2}, 6},
                                         SeedSweep{"wider", {2, 4, 16, 16, 4}, 3}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace layoutcheck
