#include "cases/gdn/probe/predictor.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace layoutcheck {
namespace {

ElementRole role_of(const std::string& field) {
  if (field == "Q") return ElementRole::q;
  if (field == "K") return ElementRole::k;
  if (field == "V") return ElementRole::v;
  if (field == "Z") return ElementRole::z;
  if (field == "B") return ElementRole::b;
  if (field == "A") return ElementRole::a;
  if (field == "S") return ElementRole::s;
  throw std::invalid_argument("no GDN role for field " + field);
}

bool is_key_head_role(ElementRole role) {
  return role == ElementRole::q || role == ElementRole::k;
}

}  // namespace

ResponsePredictor::ResponsePredictor(const GdnReference& model, GdnBuffer buffer,
                                     const GdnStepInputs& base, OneHotValues values)
    : model_(model), buffer_(buffer) {
  hot_ = buffer == GdnBuffer::state ? values.hot : bf16_to_float(float_to_bf16(values.hot));
  model_.read_row(base, 0, base_row_);
  weights_ = to_f64(base.weights, model.shape());
  for (const Field& field : probed_layout().fields) roles_.push_back(role_of(field.name));
}

std::int64_t ResponsePredictor::head_of(ElementRef element) const {
  const Field& field = probed_layout().fields[element.field];
  return field.dims.size() == 1 ? element.linear
                                : element.linear / (field.elements() / field.dims[0].size());
}

std::int64_t ResponsePredictor::index_in_head(ElementRef element) const {
  const Field& field = probed_layout().fields[element.field];
  return field.dims.size() == 1 ? 0 : element.linear % (field.elements() / field.dims[0].size());
}

const ResponsePredictor::BaseHead& ResponsePredictor::base_head(std::int64_t lane,
                                                                std::int64_t key_head) const {
  std::lock_guard lock(cache_mutex_);
  std::unique_ptr<BaseHead>& entry = cache_[{lane, key_head}];
  if (!entry) {
    GdnHeadResult result;
    compute_value_head(model_.shape(), model_.head_inputs(base_row_, weights_, lane, key_head),
                       result, true, model_.faults().head);
    double square = 0;
    for (double value : result.state) square += value * value;
    entry = std::make_unique<BaseHead>(BaseHead{result.out, result.state, std::sqrt(square)});
  }
  return *entry;
}

double ResponsePredictor::base_state_norm(std::int64_t lane, std::int64_t key_head) const {
  return base_head(lane, key_head).state_norm;
}

LanePrediction ResponsePredictor::predict(std::int64_t lane,
                                          const LaneHypothesis& hypothesis) const {
  const GdnShape& shape = model_.shape();
  const BaseHead& base = base_head(lane, hypothesis.key_head);
  GdnHeadInputs head = model_.head_inputs(base_row_, weights_, lane, hypothesis.key_head);

  // Copies of just the parts the hypothesis changes.
  thread_local std::vector<double> q_x, k_x, v_x, z, state;
  thread_local GdnHeadResult result;
  auto writable = [](std::span<const double>& view, std::vector<double>& copy) {
    if (view.data() != copy.data()) {
      copy.assign(view.begin(), view.end());
      view = copy;
    }
    return copy.data();
  };
  for (const ElementRef& element : hypothesis.elements) {
    const ElementRole role = roles_[element.field];
    const std::int64_t owner = head_of(element), index = index_in_head(element);
    if (owner != (is_key_head_role(role) ? hypothesis.key_head : lane))
      throw std::logic_error("prediction: " + probed_layout().element_name(element) +
                             " does not belong to value head " + std::to_string(lane));
    switch (role) {
      case ElementRole::q:
        writable(head.q_x, q_x)[index] = hot_;
        break;
      case ElementRole::k:
        writable(head.k_x, k_x)[index] = hot_;
        break;
      case ElementRole::v:
        writable(head.v_x, v_x)[index] = hot_;
        break;
      case ElementRole::z:
        writable(head.z, z)[index] = hot_;
        break;
      case ElementRole::b:
        head.b = static_cast<float>(hot_);
        break;
      case ElementRole::a:
        head.a = static_cast<float>(hot_);
        break;
      case ElementRole::s:
        writable(head.state, state)[index] = hot_;
        break;
    }
  }
  compute_value_head(shape, head, result, true, model_.faults().head);

  LanePrediction prediction;
  prediction.out_delta.resize(result.out.size());
  for (std::size_t v = 0; v < result.out.size(); ++v)
    prediction.out_delta[v] = result.out[v] - base.out[v];
  prediction.state_delta.resize(result.state.size());
  for (std::size_t i = 0; i < result.state.size(); ++i)
    prediction.state_delta[i] = result.state[i] - base.state[i];
  return prediction;
}

}  // namespace layoutcheck
