#include "cases/gdn/reference_runner.h"

#include <utility>

namespace layoutcheck {

ReferenceRunner::ReferenceRunner(std::string name, GdnReference reference, unsigned threads)
    : name_(std::move(name)), reference_(std::move(reference)), threads_(threads) {}

ReferenceRunner::ReferenceRunner(const GdnShape& shape, GdnLayouts layouts, unsigned threads)
    : name_("cpu model of a kernel built for " + layouts.qkvz.name + ", " + layouts.ba.name + ", " +
            layouts.state.name),
      reference_(shape, std::move(layouts)),
      threads_(threads) {}

GdnStepOutputs ReferenceRunner::step(const GdnStepInputs& inputs) {
  return reference_.step(inputs, threads_);
}

void ReferenceRunner::step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) {
  reference_.step_into(inputs, outputs, threads_);
}

}  // namespace layoutcheck
