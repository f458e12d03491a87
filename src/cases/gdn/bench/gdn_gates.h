// Runs the gates of design §8 on one GDN decode path, through the GdnRunner interface every
// implementation has (GPU paths, CPU models), against the fp64 reference reading the producer's
// layout (Qwen3.5 flat qkvz and ba):
//   - reference check: one step on fresh random inputs at every benched batch;
//   - determinism: that step run twice, every output compared bit for bit;
//   - multi-step: `steps` consecutive steps with fresh activations each step, the path's state and
//     conv state carried, errors at the checkpoints, conv state bitwise at every checkpoint.
// The reference's results are computed once and shared by every path checked.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "layoutcheck/bench/gates.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {

struct GdnGatePlan {
  GdnShape shape;
  StateOrder state_order = StateOrder::hkv;
  std::vector<std::int64_t> batches = {1, 8, 64, 256};  // reference check at each
  std::int64_t multi_step_batch = 1;
  std::int64_t steps = 1024;
  std::vector<std::int64_t> checkpoints = {1, 256, 1024};  // those above `steps` are dropped
  std::uint64_t seed = 0x1a70c4ecull;
};

// Adds the elements of a's output, state and conv state to check.elements, and those whose bits
// differ from b's to check.mismatches (the determinism and overlapped-launch gates). Buffers of
// different sizes count every element of the larger one as differing.
void add_bitwise_differences(const GdnStepOutputs& a, const GdnStepOutputs& b, BitwiseCheck& check);

// Progress lines for a terminal ("native: 1024-step gate, step 256"); may be empty.
using GateProgress = std::function<void(const std::string&)>;

class GdnGateRunner {
 public:
  // @pre plan.shape.valid(), batches and multi_step_batch positive, steps >= 0
  //      (else std::invalid_argument).
  explicit GdnGateRunner(GdnGatePlan plan, GateProgress progress = {});
  ~GdnGateRunner();
  GdnGateRunner(const GdnGateRunner&) = delete;
  GdnGateRunner& operator=(const GdnGateRunner&) = delete;

  const GdnGatePlan& plan() const { return plan_; }

  // Runs every gate on `path`. A runner that throws stops the gates: its message is recorded in
  // GateRecord::failures, so the path comes out INVALID with the reason.
  GateRecord check(GdnRunner& path);

  // The inputs of the reference check at `batch` (flat layouts), e.g. for a probe or a demo.
  const GdnStepInputs& inputs_at(std::int64_t batch);

 private:
  struct Expected;
  const Expected& expected_at(std::int64_t batch);
  void check_single_steps(GdnRunner& path, GateRecord& record);
  void check_multi_step(GdnRunner& path, GateRecord& record);
  void report(const std::string& line) const;

  GdnGatePlan plan_;
  GateProgress progress_;
  std::vector<std::unique_ptr<Expected>> expected_;  // one per batch, computed on first use
  struct MultiStepExpected;
  std::unique_ptr<MultiStepExpected> multi_step_;  // computed on first use
};

}  // namespace layoutcheck
