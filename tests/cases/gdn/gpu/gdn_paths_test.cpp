// Every GDN decode path on the GPU against the fp64 reference: output relative L2
// <= 1e-2, state relative L2 <= 1e-5, conv state bitwise equal to the reference's shift, repeated
// runs bitwise identical — at batch 1, 3 and 64, for the target shape and odd ones, both state
// layouts. The upstream kernel fed flat buffers runs and is wrong.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/gpu_test_support.h"
#include "cases/gdn/random_problem.h"
#include "cases/gdn/reference.h"
#include "cases/gdn/relative_error.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/gpu/gdn_gpu_runner.h"

namespace layoutcheck {
namespace {

using gpu::GdnGpuRunner;
using gpu::GdnPath;
using gpu::GdnPathOptions;
using testing::kOutputTolerance;
using testing::kStateTolerance;

// The stored state of every row in logical order S[b][hv][k][v], through the state contract.
std::vector<double> logical_state(const std::vector<float>& stored, const Contract& contract,
                                  std::int64_t batch) {
  const Field& field = *contract.find_field("S");
  const std::int64_t elements = field.elements();
  const std::int64_t stride = static_cast<std::int64_t>(stored.size()) / batch;
  std::vector<double> logical(static_cast<std::size_t>(batch * elements));
  for (std::int64_t b = 0; b < batch; ++b)
    field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      logical[static_cast<std::size_t>(b * elements + linear)] =
          stored[static_cast<std::size_t>(b * stride + offset)];
    });
  return logical;
}

struct Errors {
  double out = 0, state = 0;
  bool conv_state_exact = false;
};

Errors compare(const GdnStepOutputs& gpu, const GdnReferenceOutputs& exact,
               const GdnLayouts& layouts, std::int64_t batch) {
  Errors errors;
  errors.out = relative_l2(std::span<const bf16_bits>(gpu.out), exact.out);
  const std::vector<double> state = logical_state(gpu.state, layouts.state, batch);
  errors.state = relative_l2(std::span<const double>(state), exact.state);
  errors.conv_state_exact = gpu.conv_state == exact.conv_state;
  return errors;
}

struct PathCase {
  testing::ShapeCase shape;
  std::int64_t batch;
};

std::string case_name(const ::testing::TestParamInfo<PathCase>& info) {
  std::string name =
      std::string(info.param.shape.name) + "_batch" + std::to_string(info.param.batch);
  for (char& c : name)
    if (c == '/') c = 'x';
  return name;
}

std::vector<PathCase> path_cases() {
  std::vector<PathCase> cases;
  for (const testing::ShapeCase& shape : testing::gpu_shapes())
    for (std::int64_t batch : {1, 3, 64}) cases.push_back({shape, batch});
  return cases;
}

class GdnPathsTest : public ::testing::TestWithParam<PathCase> {};

TEST_P(GdnPathsTest, ValidPathsMatchTheReference) {
  LC_REQUIRE_GPU();
  const GdnShape shape = GetParam().shape.shape;
  const std::int64_t batch = GetParam().batch;
  for (StateOrder order : {StateOrder::hkv, StateOrder::hvk}) {
    const std::uint64_t seed =
        1000 + static_cast<std::uint64_t>(batch) * 7 + (order == StateOrder::hvk ? 1 : 0);
    SCOPED_TRACE("state " + std::string(order == StateOrder::hkv ? "[HV,K,V]" : "[HV,V,K]") +
                 ", seed " + std::to_string(seed));
    const GdnLayouts layouts = flat_gdn_layouts(shape, order);
    const GdnStepInputs inputs = make_random_step_inputs(shape, layouts, batch, seed);
    const GdnReference reference(shape, layouts);
    const GdnReferenceOutputs exact = reference.step_exact(inputs);
    for (GdnPath path : {GdnPath::baseline, GdnPath::adapter_upstream, GdnPath::native}) {
      SCOPED_TRACE("path " + std::string(gpu::gdn_path_name(path)));
      GdnPathOptions options;
      options.state_order = order;
      GdnGpuRunner runner(path, options);
      const GdnStepOutputs first = runner.step(inputs);
      const Errors errors = compare(first, exact, layouts, batch);
      EXPECT_LE(errors.out, kOutputTolerance);
      EXPECT_LE(errors.state, kStateTolerance);
      EXPECT_TRUE(errors.conv_state_exact);
      const GdnStepOutputs second = runner.step(inputs);
      EXPECT_TRUE(first.out == second.out && first.state == second.state &&
                  first.conv_state == second.conv_state)
          << "two runs on the same inputs differ";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, GdnPathsTest, ::testing::ValuesIn(path_cases()), case_name);

// Every split of a head's state (whole, halves, quarters, streamed, whole-deferred) in the fused
// and recurrent kernels computes the same step.
TEST(GdnPathTiles, EveryStateSplitMatchesTheReference) {
  LC_REQUIRE_GPU();
  const GdnShape shape;
  for (StateOrder order : {StateOrder::hkv, StateOrder::hvk}) {
    const GdnLayouts layouts = flat_gdn_layouts(shape, order);
    const GdnStepInputs inputs = make_random_step_inputs(shape, layouts, 5, 77);
    const GdnReferenceOutputs exact = GdnReference(shape, layouts).step_exact(inputs);
    for (GdnPath path : {GdnPath::baseline, GdnPath::adapter_upstream, GdnPath::native})
      for (kernels::StateSplit split : kernels::all_state_splits()) {
        SCOPED_TRACE(std::string(gpu::gdn_path_name(path)) + ", split " +
                     kernels::state_split_name(split));
        GdnPathOptions options;
        options.state_order = order;
        options.split = split;
        GdnGpuRunner runner(path, options);
        const Errors errors = compare(runner.step(inputs), exact, layouts, 5);
        EXPECT_LE(errors.out, kOutputTolerance);
        EXPECT_LE(errors.state, kStateTolerance);
        EXPECT_TRUE(errors.conv_state_exact);
      }
  }
}

// Design §1 step 2: the upstream kernel wired to Qwen3.5's buffers runs without an error — and
// its output is wrong. (G > 1 shapes only: with one value head per key head the layouts agree
// on more and the point is made by the probes.)
TEST(GdnPathUpstreamDirect, RunsAndIsWrong) {
  LC_REQUIRE_GPU();
  for (const GdnShape& shape : {GdnShape{16, 48, 128, 128, 4}, GdnShape{16, 32, 128, 128, 4}}) {
    const GdnLayouts layouts = flat_gdn_layouts(shape);
    const GdnStepInputs inputs = make_random_step_inputs(shape, layouts, 3, 5);
    const GdnReferenceOutputs exact = GdnReference(shape, layouts).step_exact(inputs);
    GdnGpuRunner runner(GdnPath::upstream_direct);
    const Errors errors = compare(runner.step(inputs), exact, layouts, 3);
    EXPECT_GT(errors.out, 0.3) << "H=" << shape.H << " HV=" << shape.HV;
    EXPECT_GT(errors.state, 0.01);
  }
}

// Consecutive steps, each feeding the previous step's GPU conv state and state back in, stay on
// the fp64 reference's trajectory.
TEST(GdnPathSteps, SixteenStepsStayOnTheReference) {
  LC_REQUIRE_GPU();
  const GdnShape shape;
  const GdnLayouts layouts = flat_gdn_layouts(shape);
  const std::int64_t batch = 2;
  for (GdnPath path : {GdnPath::baseline, GdnPath::adapter_upstream, GdnPath::native}) {
    SCOPED_TRACE(std::string(gpu::gdn_path_name(path)));
    GdnStepInputs inputs = make_random_step_inputs(shape, layouts, batch, 31);
    const GdnReference reference(shape, layouts);
    GdnReferenceSession session(reference, inputs);
    GdnGpuRunner runner(path);
    for (int step = 0; step < 16; ++step) {
      const GdnStepInputs fresh = make_random_step_inputs(shape, layouts, batch, 100 + step);
      inputs.qkvz = fresh.qkvz;
      inputs.ba = fresh.ba;
      const GdnReferenceOutputs& exact = session.advance(fresh.qkvz, fresh.ba);
      GdnStepOutputs gpu = runner.step(inputs);
      const Errors errors = compare(gpu, exact, layouts, batch);
      SCOPED_TRACE("step " + std::to_string(step + 1));
      EXPECT_LE(errors.out, kOutputTolerance);
      EXPECT_LE(errors.state, kStateTolerance);
      EXPECT_TRUE(errors.conv_state_exact);
      inputs.state = std::move(gpu.state);
      inputs.conv_state = std::move(gpu.conv_state);
    }
  }
}

}  // namespace
}  // namespace layoutcheck
