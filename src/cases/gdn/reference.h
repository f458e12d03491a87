// The fp64 reference of one GDN decode step (design brief section 5), reading qkvz, ba and the
// state through contracts, so the same code reads any layout. It also serves as the CPU model of
// a kernel: "the reference reading with a kernel's contracts" models any kernel built for that
// layout, and GdnFaults turns it into a model of a deliberately broken one (probe/mutants.h).
//
//   GdnReference reference(shape, flat_gdn_layouts(shape));
//   GdnReferenceOutputs exact = reference.step_exact(inputs);  // fp64, logical order
//   GdnStepOutputs stored = reference.step(inputs);            // rounded like a kernel's
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cases/gdn/layout_access.h"
#include "cases/gdn/layouts.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/shape.h"
#include "cases/gdn/value_head.h"

namespace layoutcheck {

// Deliberate departures from the reference; all off in the reference itself.
struct GdnFaults {
  enum class KeyHead { group, modulo };
  KeyHead key_head = KeyHead::group;  // value head hv uses key head hv / G (right) or hv % H
  GdnHeadFaults head;
  std::int64_t qkvz_row_stride_error = 0;  // reads qkvz row r at r * (row stride + error)
};

// Results in fp64 and logical order.
struct GdnReferenceOutputs {
  std::vector<double> out;            // [batch][HV][V]
  std::vector<double> state;          // [batch][HV][K][V]
  std::vector<bf16_bits> conv_state;  // [batch][C][W-1], raw inputs: exact
};

class GdnReference {
 public:
  // @post throws InputError (rule "gdn-layout") when the layouts do not fit the shape.
  GdnReference(const GdnShape& shape, GdnLayouts layouts, GdnFaults faults = {});

  const GdnShape& shape() const { return shape_; }
  const GdnLayouts& layouts() const { return layouts_; }
  const GdnLayoutAccess& access() const { return access_; }
  const GdnFaults& faults() const { return faults_; }

  // One step; the state comes from inputs.state through the state contract, or, to continue a
  // multi-step run exactly, from a previous step's fp64 logical state.
  GdnReferenceOutputs step_exact(const GdnStepInputs& inputs,
                                 std::optional<std::span<const double>> logical_state = {}) const;

  // One step rounded to the storage types, the state laid out by the state contract: what a
  // kernel built for these layouts writes. Batch rows are spread over `threads` threads
  // (0: all hardware threads).
  GdnStepOutputs step(const GdnStepInputs& inputs, unsigned threads = 1) const;
  // The same into outputs whose buffers are reused when they already have the right sizes.
  void step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs, unsigned threads = 1) const;

  // Per value head, for predictions: one row read in logical order, and the views one head
  // computes from (key head as given, so a prediction can follow any routing).
  std::int64_t key_head_of(std::int64_t hv) const;
  void read_row(const GdnStepInputs& inputs, std::int64_t row, GdnRowData& data) const;
  GdnHeadInputs head_inputs(const GdnRowData& row, const GdnWeightsF64& weights, std::int64_t hv,
                            std::int64_t key_head) const;

 private:
  std::int64_t qkvz_stride(const GdnStepInputs& inputs) const;
  // The conv of a whole row at once: G value heads share each key head's channels.
  void convolve_row(const GdnRowData& row, const GdnWeightsF64& weights,
                    std::vector<double>& convolved) const;
  void use_convolved(const std::vector<double>& convolved, std::int64_t hv, std::int64_t key_head,
                     GdnHeadInputs& head) const;

  GdnShape shape_;
  GdnLayouts layouts_;
  GdnFaults faults_;
  GdnLayoutAccess access_;
};

// N consecutive steps: the fp64 state and the conv state carry from one step to the next.
class GdnReferenceSession {
 public:
  // @pre initial is well formed for the reference's shape and layouts.
  GdnReferenceSession(const GdnReference& reference, GdnStepInputs initial);

  // Runs one step on the current activations (the initial ones, or those passed here).
  const GdnReferenceOutputs& advance();
  const GdnReferenceOutputs& advance(std::vector<bf16_bits> qkvz, std::vector<bf16_bits> ba);

  std::int64_t steps() const { return steps_; }
  const GdnReferenceOutputs& last() const { return last_; }

 private:
  const GdnReference& reference_;
  GdnStepInputs inputs_;
  GdnReferenceOutputs last_;
  std::int64_t steps_ = 0;
};

}  // namespace layoutcheck
