// GDN decode (T = 1) as a case of the plug-in interface (layoutcheck/cases/case.h): its buffers,
// its ABI, its reference and mutants behind CaseRunner. Its own decoder ("gdn", probe/) stays the
// default for probing; the toolkit's generic decoders run on it through the same buffers.
#pragma once

#include <memory>

#include "cases/gdn/layouts.h"
#include "cases/gdn/problem.h"
#include "layoutcheck/cases/case.h"

namespace layoutcheck {

inline constexpr std::string_view kGdnDecoder = "gdn";

std::shared_ptr<const Case> make_gdn_case();

// The GDN step's buffers as a BufferSet and back: qkvz, ba and state through their contracts;
// conv_state, conv_weight, A_log, dt_bias, norm_weight and out flat (problem.h).
BufferSet gdn_buffers(const GdnStepInputs& inputs, const GdnLayouts& layouts);
GdnStepInputs gdn_step_inputs(const BufferSet& buffers, const GdnLayouts& layouts);
void store_gdn_outputs(const GdnStepOutputs& outputs, BufferSet& buffers);

// The three laid-out buffers of a CaseLayouts; throws InputError (rule "case-layout") when one is
// missing or does not describe its buffer.
GdnLayouts gdn_layouts_of(const CaseLayouts& layouts);

// A GdnRunner as a CaseRunner (the buffers converted at each call).
class GdnCaseRunner : public CaseRunner {
 public:
  GdnCaseRunner(std::unique_ptr<GdnRunner> runner, GdnLayouts layouts);
  std::string name() const override { return runner_->name(); }
  void run(BufferSet& buffers) override;

 private:
  std::unique_ptr<GdnRunner> runner_;
  GdnLayouts layouts_;
};

}  // namespace layoutcheck
