// GoogleTest helpers for porting tests: "this kernel reads buffers laid out by these contracts
// correctly", in one line, failing with the probe's reviewer summary. Header-only; include it
// from a test that links GTest and layoutcheck.
//
//   TEST(MyPort, ReadsTheQwen35Layout) {
//     const layoutcheck::GdnShape shape{16, 48, 128, 128, 4};
//     auto kernel = [](const layoutcheck::GdnStepInputs& in) { return my_gdn_step(in); };
//     EXPECT_TRUE(layoutcheck::ReadsGdnLayouts(kernel, shape,
//     layoutcheck::flat_gdn_layouts(shape)));
//   }
//
// A failure prints the probe's summary per buffer read wrong, e.g. for a Qwen3-Next kernel:
//   qkvz: probe: ... fed qwen3_5.qkvz (qkvz, 16384 offsets, 8 per run)
//     field   elements  misread  unresolved
//     Q       2048      1920     0
//     ...
//     the kernel reads Q[1,0:128] from offsets 1024-1151, which hold Q[8,0:128]
//   verdict: layout misread: 15488 of 16384 elements, ...
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include "cases/gdn/layouts.h"
#include "cases/gdn/probe/gdn_case_verdict.h"
#include "cases/gdn/probe/probe_options.h"
#include "cases/gdn/probe/probe_sweep.h"
#include "cases/gdn/problem.h"

namespace layoutcheck {

// A callable GdnStepOutputs(const GdnStepInputs&) as a GdnRunner.
class CallableRunner : public GdnRunner {
 public:
  using Step = std::function<GdnStepOutputs(const GdnStepInputs&)>;
  explicit CallableRunner(Step step, std::string name = "kernel under test")
      : step_(std::move(step)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override { return step_(inputs); }

 private:
  Step step_;
  std::string name_;
};

// Passes when the probe of `buffer` is clean: every element read from where `producer` puts it,
// every value head on its key head, rows right, values matching the reference.
inline ::testing::AssertionResult ReadsGdnBuffer(GdnRunner& kernel, const ProbeTarget& target,
                                                 const ProbeOptions& options = {}) {
  const ProbeVerdict verdict = probe_gdn_runner(kernel, target, options);
  if (verdict.clean())
    return ::testing::AssertionSuccess()
           << std::string(gdn_buffer_name(target.buffer)) << ": " << verdict.conclusion();
  return ::testing::AssertionFailure() << std::string(gdn_buffer_name(target.buffer)) << ": "
                                       << case_verdict_text(gdn_case_verdict(verdict));
}

// Passes when a kernel claiming to read `layouts` reads buffers laid out by them correctly,
// probing each of `buffers`.
inline ::testing::AssertionResult ReadsGdnLayouts(
    GdnRunner& kernel, const GdnShape& shape, const GdnLayouts& layouts,
    std::initializer_list<GdnBuffer> buffers = {GdnBuffer::qkvz, GdnBuffer::ba},
    const ProbeOptions& options = {}) {
  ::testing::AssertionResult all = ::testing::AssertionSuccess();
  std::string failures;
  for (GdnBuffer buffer : buffers) {
    ::testing::AssertionResult one = ReadsGdnBuffer(
        kernel, ProbeTarget{shape, buffer, layout_of(layouts, buffer), layouts}, options);
    if (!one) failures += one.message();
  }
  if (failures.empty()) return all;
  return ::testing::AssertionFailure() << failures;
}

// The same for a callable step.
template <class Step>
requires(
    std::is_invocable_r_v<GdnStepOutputs, Step&, const GdnStepInputs&>)::testing::AssertionResult
    ReadsGdnLayouts(Step&& step, const GdnShape& shape, const GdnLayouts& layouts,
                    std::initializer_list<GdnBuffer> buffers = {GdnBuffer::qkvz, GdnBuffer::ba},
                    const ProbeOptions& options = {}) {
  CallableRunner kernel(std::forward<Step>(step));
  return ReadsGdnLayouts(kernel, shape, layouts, buffers, options);
}

}  // namespace layoutcheck
