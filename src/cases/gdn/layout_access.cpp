#include "cases/gdn/layout_access.h"

#include <stdexcept>
#include <string>

namespace layoutcheck {
namespace {

std::vector<std::int64_t> field_offsets(const Contract& contract, const char* name) {
  return contract.find_field(name)->offsets();
}

void require_size(const char* buffer, std::size_t actual, std::int64_t needed,
                  const std::string& why) {
  if (static_cast<std::int64_t>(actual) < needed)
    throw std::invalid_argument("GDN step inputs: " + std::string(buffer) + " holds " +
                                std::to_string(actual) + " elements, " + why + " needs " +
                                std::to_string(needed));
}

// Elements a buffer of `rows` rows needs: the last row starts (rows-1)*stride in.
std::int64_t span_of_rows(std::int64_t rows, std::int64_t stride, std::int64_t row_size) {
  return rows <= 0 ? 0 : (rows - 1) * stride + row_size;
}

}  // namespace

GdnLayoutAccess::GdnLayoutAccess(const GdnShape& shape, const GdnLayouts& layouts)
    : shape_(shape),
      qkvz_row_size_(layouts.qkvz.row_size),
      ba_row_size_(layouts.ba.row_size),
      state_row_size_(layouts.state.row_size),
      state_row_stride_(row_stride(layouts.state)) {
  for (const char* name : {"Q", "K", "V"}) {
    const std::vector<std::int64_t> offsets = field_offsets(layouts.qkvz, name);
    channel_offsets_.insert(channel_offsets_.end(), offsets.begin(), offsets.end());
  }
  z_offsets_ = field_offsets(layouts.qkvz, "Z");
  b_offsets_ = field_offsets(layouts.ba, "B");
  a_offsets_ = field_offsets(layouts.ba, "A");
  state_offsets_ = field_offsets(layouts.state, "S");

  const std::int64_t K = shape.K, V = shape.V, head = K * V;
  k_stride_ = K > 1 ? state_offsets_[static_cast<std::size_t>(V)] - state_offsets_[0] : 0;
  v_stride_ = V > 1 ? state_offsets_[1] - state_offsets_[0] : 0;
  state_dense_ = state_row_stride_ == state_row_size_ && state_row_size_ == shape.state_elements();
  state_affine_ = true;
  head_base_.resize(static_cast<std::size_t>(shape.HV));
  for (std::int64_t hv = 0; hv < shape.HV && state_affine_; ++hv) {
    const std::int64_t* offsets = state_offsets_.data() + hv * head;
    head_base_[static_cast<std::size_t>(hv)] = offsets[0];
    for (std::int64_t k = 0; k < K && state_affine_; ++k)
      for (std::int64_t v = 0; v < V; ++v)
        if (offsets[k * V + v] != offsets[0] + k * k_stride_ + v * v_stride_) {
          state_affine_ = false;
          break;
        }
  }
}

void GdnLayoutAccess::check_inputs(const GdnStepInputs& inputs,
                                   std::int64_t qkvz_row_stride) const {
  const GdnShape& s = shape_;
  if (inputs.shape.H != s.H || inputs.shape.HV != s.HV || inputs.shape.K != s.K ||
      inputs.shape.V != s.V || inputs.shape.W != s.W)
    throw std::invalid_argument("GDN step inputs: shape differs from the layouts' shape");
  if (inputs.batch < 1) throw std::invalid_argument("GDN step inputs: batch must be at least 1");
  if (qkvz_row_stride < 0 || inputs.ba_row_stride < ba_row_size_)
    throw std::invalid_argument("GDN step inputs: row strides below the row sizes");
  const std::int64_t B = inputs.batch, C = s.conv_channels();
  require_size("qkvz", inputs.qkvz.size(), span_of_rows(B, qkvz_row_stride, qkvz_row_size_),
               std::to_string(B) + " rows " + std::to_string(qkvz_row_stride) + " apart");
  require_size("ba", inputs.ba.size(), span_of_rows(B, inputs.ba_row_stride, ba_row_size_),
               std::to_string(B) + " rows " + std::to_string(inputs.ba_row_stride) + " apart");
  require_size("conv_state", inputs.conv_state.size(), B * C * (s.W - 1), "[batch][C][W-1]");
  require_size("state", inputs.state.size(), span_of_rows(B, state_row_stride_, state_row_size_),
               "the state contract");
  require_size("conv_weight", inputs.weights.conv_weight.size(), C * s.W, "[C][W]");
  require_size("A_log", inputs.weights.A_log.size(), s.HV, "[HV]");
  require_size("dt_bias", inputs.weights.dt_bias.size(), s.HV, "[HV]");
  require_size("norm_weight", inputs.weights.norm_weight.size(), s.V, "[V]");
}

void GdnLayoutAccess::read_row(const GdnStepInputs& inputs, std::int64_t row,
                               std::int64_t qkvz_row_stride, GdnRowData& data,
                               bool with_state) const {
  const std::int64_t C = shape_.conv_channels(), taps = shape_.W - 1;
  const bf16_bits* qkvz = inputs.qkvz.data() + row * qkvz_row_stride;
  data.x.resize(static_cast<std::size_t>(C));
  for (std::int64_t c = 0; c < C; ++c) data.x[c] = bf16_to_float(qkvz[channel_offsets_[c]]);
  data.z.resize(z_offsets_.size());
  for (std::size_t i = 0; i < z_offsets_.size(); ++i)
    data.z[i] = bf16_to_float(qkvz[z_offsets_[i]]);

  const bf16_bits* ba = inputs.ba.data() + row * inputs.ba_row_stride;
  data.b.resize(b_offsets_.size());
  data.a.resize(a_offsets_.size());
  for (std::size_t i = 0; i < b_offsets_.size(); ++i) data.b[i] = bf16_to_float(ba[b_offsets_[i]]);
  for (std::size_t i = 0; i < a_offsets_.size(); ++i) data.a[i] = bf16_to_float(ba[a_offsets_[i]]);

  const bf16_bits* conv = inputs.conv_state.data() + row * C * taps;
  data.taps.resize(static_cast<std::size_t>(C * taps));
  for (std::int64_t i = 0; i < C * taps; ++i) data.taps[i] = bf16_to_float(conv[i]);

  if (!with_state) return;
  const std::int64_t head = shape_.K * shape_.V;
  data.state.resize(static_cast<std::size_t>(shape_.HV * head));
  for (std::int64_t hv = 0; hv < shape_.HV; ++hv)
    read_head_state(inputs.state, row, hv, data.state.data() + hv * head);
}

void GdnLayoutAccess::read_head_state(std::span<const float> state, std::int64_t row,
                                      std::int64_t hv, double* out) const {
  const std::int64_t K = shape_.K, V = shape_.V;
  const float* base = state.data() + row * state_row_stride_;
  if (!state_affine_) {
    const std::int64_t* offsets = state_offsets_.data() + hv * K * V;
    for (std::int64_t i = 0; i < K * V; ++i) out[i] = base[offsets[i]];
    return;
  }
  const float* head = base + head_base_[static_cast<std::size_t>(hv)];
  if (v_stride_ == 1) {  // [HV,K,V]: contiguous rows, vectorised conversion
    for (std::int64_t k = 0; k < K; ++k) {
      const float* source = head + k * k_stride_;
      double* target = out + k * V;
      for (std::int64_t v = 0; v < V; ++v) target[v] = source[v];
    }
    return;
  }
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t v = 0; v < V; ++v) out[k * V + v] = head[k * k_stride_ + v * v_stride_];
}

void GdnLayoutAccess::write_head_state(const double* head_state, std::int64_t row, std::int64_t hv,
                                       std::span<float> state) const {
  const std::int64_t K = shape_.K, V = shape_.V;
  float* base = state.data() + row * state_row_stride_;
  if (!state_affine_) {
    const std::int64_t* offsets = state_offsets_.data() + hv * K * V;
    for (std::int64_t i = 0; i < K * V; ++i) base[offsets[i]] = static_cast<float>(head_state[i]);
    return;
  }
  float* head = base + head_base_[static_cast<std::size_t>(hv)];
  if (v_stride_ == 1) {
    for (std::int64_t k = 0; k < K; ++k) {
      float* target = head + k * k_stride_;
      const double* source = head_state + k * V;
      for (std::int64_t v = 0; v < V; ++v) target[v] = static_cast<float>(source[v]);
    }
    return;
  }
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t v = 0; v < V; ++v)
      head[k * k_stride_ + v * v_stride_] = static_cast<float>(head_state[k * V + v]);
}

std::vector<double> to_f64(std::span<const bf16_bits> values) {
  std::vector<double> result(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) result[i] = bf16_to_float(values[i]);
  return result;
}

GdnWeightsF64 to_f64(const GdnWeights& weights, const GdnShape& shape) {
  GdnWeightsF64 result;
  result.conv_weight =
      to_f64(std::span(weights.conv_weight)
                 .first(static_cast<std::size_t>(shape.conv_channels() * shape.W)));
  result.norm_weight =
      to_f64(std::span(weights.norm_weight).first(static_cast<std::size_t>(shape.V)));
  result.A_log.assign(weights.A_log.begin(), weights.A_log.begin() + shape.HV);
  result.dt_bias.assign(weights.dt_bias.begin(), weights.dt_bias.begin() + shape.HV);
  return result;
}

}  // namespace layoutcheck
