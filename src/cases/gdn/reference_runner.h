// The fp64 reference as a GdnRunner. Built with a kernel's contracts it is the CPU model of any
// kernel built for that layout ("a kernel for layout C reads its buffers like the reference reading
// through C"); built with GdnFaults it models a deliberately broken kernel (probe/mutants.h).
#pragma once

#include <string>

#include "cases/gdn/problem.h"
#include "cases/gdn/reference.h"

namespace layoutcheck {

class ReferenceRunner : public GdnRunner {
 public:
  // threads: batch rows are spread over this many threads (0: all hardware threads).
  ReferenceRunner(std::string name, GdnReference reference, unsigned threads = 0);
  ReferenceRunner(const GdnShape& shape, GdnLayouts layouts, unsigned threads = 0);

  std::string name() const override { return name_; }
  GdnStepOutputs step(const GdnStepInputs& inputs) override;
  void step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs) override;

  const GdnReference& reference() const { return reference_; }

 private:
  std::string name_;
  GdnReference reference_;
  unsigned threads_;
};

}  // namespace layoutcheck
