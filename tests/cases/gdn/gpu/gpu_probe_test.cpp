// One-hot probes of the shipped GPU paths: the upstream kernel fed flat buffers misreads
// exactly the static diff's set at 16/48/128/128 and 16/32/128/128; baseline, adapter+upstream
// and native read everything where the producer put it.
#include <gtest/gtest.h>

#include <string>

#include "gpu/gpu_test_support.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/gpu/gdn_gpu_runner.h"
#include "cases/gdn/probe/probe_sweep.h"

namespace layoutcheck {
namespace {

using gpu::GdnGpuRunner;
using gpu::GdnPath;

ProbeOptions gpu_probe_options() {
  ProbeOptions options;
  // probes per launch, one per batch row: 1024 moved 3 GB of state each way per call and made a
  // 16/48 sweep take ~50 s on the H200; a few dozen rows keep transfers and decoding balanced
  options.max_batch = 64;
  return options;
}

std::string details(const ProbeVerdict& verdict) {
  std::string text = verdict.conclusion();
  for (const std::string& detail : verdict.unresolved_details) text += "\n  " + detail;
  if (!verdict.values.detail.empty()) text += "\n  values: " + verdict.values.detail;
  return text;
}

const GdnShape kTarget{16, 48, 128, 128, 4};
const GdnShape kNext80B{16, 32, 128, 128, 4};

TEST(GpuProbes, UpstreamFedFlatMisreadsExactlyTheStaticDiff) {
  LC_REQUIRE_GPU();
  for (const GdnShape& shape : {kTarget, kNext80B})
    for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba}) {
      SCOPED_TRACE("HV=" + std::to_string(shape.HV) + " " + std::string(gdn_buffer_name(buffer)));
      GdnGpuRunner kernel(GdnPath::upstream_direct);
      const GdnLayouts flat = flat_gdn_layouts(shape);
      const ProbeTarget target{shape, buffer, layout_of(flat, buffer),
                               interleaved_gdn_layouts(shape)};
      const ProbeVerdict verdict = probe_gdn_runner(kernel, target, gpu_probe_options());
      EXPECT_GT(verdict.reads.misread, 0);
      EXPECT_EQ(verdict.reads.misread, verdict.static_diff.misread);
      EXPECT_EQ(verdict.reads.unresolved, 0) << details(verdict);
      EXPECT_TRUE(verdict.agrees_with_diff) << details(verdict);
      EXPECT_TRUE(verdict.values_ok()) << details(verdict);  // a layout bug, not a numeric one
    }
}

TEST(GpuProbes, ValidPathsReadWhereTheProducerWrote) {
  LC_REQUIRE_GPU();
  const struct {
    GdnPath path;
    GdnShape shape;
  } cases[] = {{GdnPath::native, kTarget},
               {GdnPath::adapter_upstream, kNext80B},
               {GdnPath::baseline, kNext80B}};
  for (const auto& c : cases)
    for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba}) {
      SCOPED_TRACE(std::string(gpu::gdn_path_name(c.path)) + " HV=" + std::to_string(c.shape.HV) +
                   " " + std::string(gdn_buffer_name(buffer)));
      GdnGpuRunner kernel(c.path);
      const GdnLayouts flat = flat_gdn_layouts(c.shape);
      const ProbeTarget target{c.shape, buffer, layout_of(flat, buffer), flat};
      const ProbeVerdict verdict = probe_gdn_runner(kernel, target, gpu_probe_options());
      EXPECT_TRUE(verdict.clean()) << details(verdict);
      EXPECT_EQ(verdict.reads.misread, 0);
    }
}

// The state is probed at a small shape (every one of its elements is a probe): both layouts,
// read and written where the state contract says.
TEST(GpuProbes, StateIsReadAndWrittenWhereItsContractSays) {
  LC_REQUIRE_GPU();
  const GdnShape small{2, 4, 16, 12, 4};
  for (StateOrder order : {StateOrder::hkv, StateOrder::hvk})
    for (GdnPath path : {GdnPath::native, GdnPath::baseline}) {
      SCOPED_TRACE(std::string(gpu::gdn_path_name(path)) +
                   (order == StateOrder::hkv ? " [HV,K,V]" : " [HV,V,K]"));
      gpu::GdnPathOptions options;
      options.state_order = order;
      GdnGpuRunner kernel(path, options);
      const GdnLayouts flat = flat_gdn_layouts(small, order);
      const ProbeTarget target{small, GdnBuffer::state, flat.state, flat};
      const ProbeVerdict verdict = probe_gdn_runner(kernel, target, gpu_probe_options());
      EXPECT_TRUE(verdict.clean()) << details(verdict);
    }
}

}  // namespace
}  // namespace layoutcheck
