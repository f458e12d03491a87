// The reference's prediction of how one value head responds to a one-hot input, computed for that
// head only: what makes matching a sweep of 10^4 probes fast. A hypothesis says which consumer
// elements of the probed buffer the head saw holding the hot value, and which key head it reads
// (so a prediction can follow a kernel that routes value heads to the wrong key head).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "cases/gdn/probe/probe_options.h"
#include "cases/gdn/reference.h"
#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

struct LaneHypothesis {
  std::int64_t key_head = 0;
  std::vector<ElementRef> elements;  // consumer elements of the probed buffer
  friend bool operator==(const LaneHypothesis&, const LaneHypothesis&) = default;
};

struct LanePrediction {
  std::vector<double> out_delta;    // [V] predicted output minus base output
  std::vector<double> state_delta;  // [K*V] predicted state minus base state, S[k][v]
};

// The role an element of the probed buffer plays in a value head.
enum class ElementRole { q, k, v, z, b, a, s };

class ResponsePredictor {
 public:
  // @pre model reads through the layouts the kernel claims (the consumer's), base are the probe
  //      inputs without any hot element. Keeps references to both.
  ResponsePredictor(const GdnReference& model, GdnBuffer buffer, const GdnStepInputs& base,
                    OneHotValues values);

  const Contract& probed_layout() const { return layout_of(model_.layouts(), buffer_); }
  ElementRole role(ElementRef element) const { return roles_[element.field]; }
  // The value head (v, z, b, a, s) or key head (q, k) an element belongs to, and its index
  // within that head.
  std::int64_t head_of(ElementRef element) const;
  std::int64_t index_in_head(ElementRef element) const;

  // @pre every element belongs to lane (value-head roles) or to hypothesis.key_head (q, k).
  // Thread-safe.
  LanePrediction predict(std::int64_t lane, const LaneHypothesis& hypothesis) const;

  // ||base state|| of a lane reading the given key head, as the model computes it: the scale of
  // fp32 rounding in an observed state response.
  double base_state_norm(std::int64_t lane, std::int64_t key_head) const;

 private:
  struct BaseHead {
    std::vector<double> out, state;
    double state_norm = 0;
  };
  const BaseHead& base_head(std::int64_t lane, std::int64_t key_head) const;

  const GdnReference& model_;
  GdnBuffer buffer_;
  double hot_ = 0;  // the hot value as the kernel reads it (bf16-rounded for activations)
  GdnRowData base_row_;
  GdnWeightsF64 weights_;
  std::vector<ElementRole> roles_;  // per field of the probed layout
  mutable std::mutex cache_mutex_;
  mutable std::map<std::pair<std::int64_t, std::int64_t>, std::unique_ptr<BaseHead>> cache_;
};

}  // namespace layoutcheck
