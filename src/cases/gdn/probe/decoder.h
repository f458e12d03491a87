// From one probe's response to what the kernel read: which consumer elements it took from the
// probed offset, and which value heads (lanes) consumed them.
//
// Candidates come from the structure of the response, then each is checked against the
// reference's prediction for the affected head only:
// - conv state: a conv channel's newest tap holding the hot value names the Q, K or V element
//   the kernel read (the conv state keeps raw inputs);
// - one output lane changed and no state: a Z element;
// - otherwise the roles that fit (state changed or not) are tried, per head.
// A lane's response must match one candidate within tolerance and no other candidate within
// twice that; if several match it is ambiguous, if none it is unresolved. Never guessed: what the
// structure names alone (the conv state, a lone output lane, the shape of a state response) is
// recorded as read even when the head's values differ from the prediction (a numeric bug
// downstream of a correct read), flagged as such.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cases/gdn/probe/predictor.h"
#include "cases/gdn/probe/response.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

enum class ProbeOutcome {
  not_read,    // nothing changed in any row
  resolved,    // every affected lane matched one candidate
  unresolved,  // some lane matched no candidate
  ambiguous,   // some lane matched several candidates
  elsewhere,   // no response in the probed row, but in another one
};

struct LaneRead {
  std::int64_t lane = 0;      // value head
  std::int64_t key_head = 0;  // the key head it read q and k from
  std::vector<ElementRef> elements;
  bool matched_prediction = true;  // false: named by the conv state, values off the prediction
};

struct ProbeDecoding {
  std::int64_t row = 0;
  std::int64_t offset = 0;
  ProbeOutcome outcome = ProbeOutcome::not_read;
  std::vector<ElementRef> elements;  // consumer elements read from this offset
  std::vector<LaneRead> lanes;
  std::vector<std::int64_t> other_rows;  // rows besides the probed one that responded
  std::string detail;                    // why unresolved or ambiguous
};

class ProbeDecoder {
 public:
  // base_out: the kernel's base output row ([HV*V], bf16), the scale of its rounding.
  // state_layout: the state contract the kernel claims to write (hints for state probes).
  ProbeDecoder(const ResponsePredictor& predictor, const GdnShape& shape, double tolerance,
               std::vector<bf16_bits> base_out, const Contract& state_layout, float hot);

  // @pre response.changed. Fills outcome, elements, lanes and detail of the decoding.
  void decode(const RowResponse& response, ProbeDecoding& decoding) const;

 private:
  // Where a state response is looked for: at the offsets the claimed state layout gives (the
  // sharp test), where the other standard order ([HV,K,V] vs [HV,V,K]) would put it, or anywhere
  // (as sorted magnitudes): a kernel may write its state in another layout than it claims.
  enum class StatePlacement { claimed, transposed, anywhere };
  // How far a prediction misses the response, against what rounding and tolerance allow.
  struct Fit {
    double out_miss = 0, out_allowance = 1, state_miss = 0, state_allowance = 1;
    double score() const;  // <= 1: the prediction matches
  };
  struct Evaluated {
    LaneHypothesis hypothesis;
    LanePrediction prediction;
    Fit fit;
    double score() const { return fit.score(); }
  };
  // A lane whose elements the response's structure names, verified against the prediction.
  struct NamedLane {
    std::int64_t lane = 0;
    Evaluated chosen;
  };

  Evaluated evaluate(std::int64_t lane, const LaneHypothesis& hypothesis,
                     const RowResponse& response, StatePlacement placement) const;
  Fit fit(std::int64_t lane, const Evaluated& evaluated, const RowResponse& response,
          StatePlacement placement) const;
  // The placements to try, sharpest first.
  std::vector<StatePlacement> placements() const;

  // qkvz: what the conv state names for this lane (one option per key head named), or a lone
  // z when only one output lane moved.
  std::vector<LaneHypothesis> named_options(std::int64_t lane, const RowResponse& response,
                                            const std::vector<ElementRef>& conv_elements) const;
  NamedLane verify_named(std::int64_t lane, const std::vector<LaneHypothesis>& options,
                         const RowResponse& response) const;
  // Nothing named: every candidate that fits the response's shape, to be told apart by prediction.
  std::vector<LaneHypothesis> predicted_candidates(std::int64_t lane,
                                                   const RowResponse& response) const;
  std::vector<LaneHypothesis> state_candidates(std::int64_t lane,
                                               const RowResponse& response) const;
  // When no prediction fits (a kernel whose numbers differ): the element the shape of the state
  // response names, for ba and state probes (state_change_shape.h).
  std::optional<LaneHypothesis> named_by_state_shape(std::int64_t lane, std::int64_t offset,
                                                     const RowResponse& response) const;
  void choose_by_prediction(std::int64_t lane, const std::vector<LaneHypothesis>& candidates,
                            const RowResponse& response, ProbeDecoding& decoding) const;

  // When no candidate fits with the state where the claimed layout puts it, rescore those
  // whose output fits with the state placed as the other standard order would, then anywhere.
  void look_elsewhere_for_state(std::int64_t lane, const RowResponse& response,
                                std::vector<Evaluated>& tried) const;
  // The few output lanes a prediction explains worst, worst first.
  std::vector<std::int64_t> worst_lanes(std::int64_t lane, const LanePrediction& prediction,
                                        const RowResponse& response) const;
  // The observed change of one lane's output ([V]) and state ([K*V], empty when unchanged).
  std::span<const float> observed_out(std::int64_t lane, const RowResponse& response) const;
  std::span<const double> observed_state(std::int64_t lane, const RowResponse& response) const;
  std::int64_t standard_key_head(std::int64_t lane) const { return lane / shape_.G(); }
  ElementRef element(const char* field, std::int64_t linear) const;
  std::string describe(std::int64_t lane, const LaneHypothesis& hypothesis) const;

  const ResponsePredictor& predictor_;
  GdnShape shape_;
  double tolerance_;
  std::vector<bf16_bits> base_out_;
  std::vector<std::int64_t> state_element_at_;  // S linear index at each state offset, or -1
  // Per S linear index under the other standard order: the claimed S linear index observed at
  // the offset it would be written to; empty when the claimed layout is not a standard order.
  std::vector<std::int64_t> transposed_source_;
  bf16_bits hot_bits_;
};

}  // namespace layoutcheck
