#include "cases/gdn/reference.h"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <utility>

namespace layoutcheck {
namespace {

const GdnLayouts& validated(const GdnLayouts& layouts, const GdnShape& shape) {
  validate_gdn_layouts(layouts, shape);
  return layouts;
}

unsigned thread_count(unsigned requested) {
  return requested ? requested : std::max(1u, std::thread::hardware_concurrency());
}

// Runs work(row, first head, end head) over every row, each row split into as many head ranges
// as it takes to keep every thread busy when there are fewer rows than threads.
template <class Work>
void for_each_row_part(std::int64_t rows, std::int64_t heads, unsigned threads, Work&& work) {
  const std::int64_t parts = std::clamp<std::int64_t>(
      (static_cast<std::int64_t>(threads) + rows - 1) / std::max<std::int64_t>(rows, 1), 1, heads);
  const std::int64_t units = rows * parts;
  auto run = [&](std::int64_t unit) {
    const std::int64_t row = unit / parts, part = unit % parts;
    work(row, part * heads / parts, (part + 1) * heads / parts);
  };
  const auto workers = static_cast<unsigned>(std::min<std::int64_t>(threads, units));
  if (workers <= 1) {
    for (std::int64_t unit = 0; unit < units; ++unit) run(unit);
    return;
  }
  std::vector<std::jthread> pool;
  for (unsigned t = 0; t < workers; ++t)
    pool.emplace_back([&, t] {
      for (std::int64_t unit = t; unit < units; unit += workers) run(unit);
    });
}

// New conv state of one row: the taps shift by one and the raw input becomes the newest.
void shift_conv_state(const GdnShape& shape, const bf16_bits* taps, const GdnRowData& row,
                      bf16_bits* out) {
  const std::int64_t C = shape.conv_channels(), W1 = shape.W - 1;
  for (std::int64_t c = 0; c < C; ++c) {
    for (std::int64_t t = 0; t + 1 < W1; ++t) out[c * W1 + t] = taps[c * W1 + t + 1];
    // x came from bf16, so rounding it back is exact
    out[c * W1 + W1 - 1] = float_to_bf16(static_cast<float>(row.x[static_cast<std::size_t>(c)]));
  }
}

}  // namespace

GdnReference::GdnReference(const GdnShape& shape, GdnLayouts layouts, GdnFaults faults)
    : shape_(shape),
      layouts_(std::move(layouts)),
      faults_(faults),
      access_(shape, validated(layouts_, shape)) {}

std::int64_t GdnReference::key_head_of(std::int64_t hv) const {
  return faults_.key_head == GdnFaults::KeyHead::modulo ? hv % shape_.H : hv / shape_.G();
}

std::int64_t GdnReference::qkvz_stride(const GdnStepInputs& inputs) const {
  if (inputs.qkvz_row_stride < layouts_.qkvz.row_size)
    throw std::invalid_argument(
        "GDN step inputs: qkvz row stride " + std::to_string(inputs.qkvz_row_stride) +
        " is below the qkvz row size " + std::to_string(layouts_.qkvz.row_size));
  return inputs.qkvz_row_stride + faults_.qkvz_row_stride_error;
}

void GdnReference::read_row(const GdnStepInputs& inputs, std::int64_t row, GdnRowData& data) const {
  access_.read_row(inputs, row, qkvz_stride(inputs), data, true);
}

GdnHeadInputs GdnReference::head_inputs(const GdnRowData& row, const GdnWeightsF64& weights,
                                        std::int64_t hv, std::int64_t key_head) const {
  const std::int64_t H = shape_.H, K = shape_.K, V = shape_.V, W = shape_.W, W1 = W - 1;
  const std::int64_t q_channel = key_head * K, k_channel = H * K + key_head * K,
                     v_channel = 2 * H * K + hv * V;
  auto part = [](const auto& values, std::int64_t begin, std::int64_t count) {
    return std::span<const typename std::decay_t<decltype(values)>::value_type>(
        values.data() + begin, static_cast<std::size_t>(count));
  };
  GdnHeadInputs head;
  head.q_x = part(row.x, q_channel, K);
  head.k_x = part(row.x, k_channel, K);
  head.v_x = part(row.x, v_channel, V);
  head.q_taps = part(row.taps, q_channel * W1, K * W1);
  head.k_taps = part(row.taps, k_channel * W1, K * W1);
  head.v_taps = part(row.taps, v_channel * W1, V * W1);
  head.q_weight = part(weights.conv_weight, q_channel * W, K * W);
  head.k_weight = part(weights.conv_weight, k_channel * W, K * W);
  head.v_weight = part(weights.conv_weight, v_channel * W, V * W);
  head.z = part(row.z, hv * V, V);
  head.b = row.b[static_cast<std::size_t>(hv)];
  head.a = row.a[static_cast<std::size_t>(hv)];
  head.A_log = weights.A_log[static_cast<std::size_t>(hv)];
  head.dt_bias = weights.dt_bias[static_cast<std::size_t>(hv)];
  head.norm_weight = weights.norm_weight;
  if (!row.state.empty()) head.state = part(row.state, hv * K * V, K * V);
  return head;
}

void GdnReference::convolve_row(const GdnRowData& row, const GdnWeightsF64& weights,
                                std::vector<double>& convolved) const {
  convolved.resize(row.x.size());
  gdn_causal_conv(row.x, row.taps, weights.conv_weight, shape_.W, convolved);
}

void GdnReference::use_convolved(const std::vector<double>& convolved, std::int64_t hv,
                                 std::int64_t key_head, GdnHeadInputs& head) const {
  const std::int64_t H = shape_.H, K = shape_.K, V = shape_.V;
  const std::span<const double> all(convolved);
  head.q_conv = all.subspan(static_cast<std::size_t>(key_head * K), static_cast<std::size_t>(K));
  head.k_conv =
      all.subspan(static_cast<std::size_t>((H + key_head) * K), static_cast<std::size_t>(K));
  head.v_conv =
      all.subspan(static_cast<std::size_t>(2 * H * K + hv * V), static_cast<std::size_t>(V));
}

GdnReferenceOutputs GdnReference::step_exact(
    const GdnStepInputs& inputs, std::optional<std::span<const double>> logical_state) const {
  const std::int64_t stride = qkvz_stride(inputs);
  access_.check_inputs(inputs, stride);
  const std::int64_t B = inputs.batch, HV = shape_.HV, V = shape_.V, KV = shape_.K * shape_.V;
  const std::int64_t conv_row = shape_.conv_channels() * (shape_.W - 1);
  if (logical_state && static_cast<std::int64_t>(logical_state->size()) != B * HV * KV)
    throw std::invalid_argument("GDN reference: the fp64 state holds " +
                                std::to_string(logical_state->size()) + " values, " +
                                std::to_string(B * HV * KV) + " expected");
  const GdnWeightsF64 weights = to_f64(inputs.weights, shape_);

  GdnReferenceOutputs outputs;
  outputs.out.resize(static_cast<std::size_t>(B * HV * V));
  outputs.state.resize(static_cast<std::size_t>(B * HV * KV));
  outputs.conv_state.resize(static_cast<std::size_t>(B * conv_row));
  GdnRowData row;
  GdnHeadResult result;
  std::vector<double> convolved;
  for (std::int64_t r = 0; r < B; ++r) {
    access_.read_row(inputs, r, stride, row, !logical_state);
    if (logical_state)
      row.state.assign(logical_state->begin() + r * HV * KV,
                       logical_state->begin() + (r + 1) * HV * KV);
    convolve_row(row, weights, convolved);
    for (std::int64_t hv = 0; hv < HV; ++hv) {
      GdnHeadInputs head = head_inputs(row, weights, hv, key_head_of(hv));
      use_convolved(convolved, hv, key_head_of(hv), head);
      compute_value_head(shape_, head, result, true, faults_.head);
      std::copy(result.out.begin(), result.out.end(), outputs.out.begin() + (r * HV + hv) * V);
      std::copy(result.state.begin(), result.state.end(),
                outputs.state.begin() + (r * HV + hv) * KV);
    }
    shift_conv_state(shape_, inputs.conv_state.data() + r * conv_row, row,
                     outputs.conv_state.data() + r * conv_row);
  }
  return outputs;
}

GdnStepOutputs GdnReference::step(const GdnStepInputs& inputs, unsigned threads) const {
  GdnStepOutputs outputs;
  step_into(inputs, outputs, threads);
  return outputs;
}

void GdnReference::step_into(const GdnStepInputs& inputs, GdnStepOutputs& outputs,
                             unsigned threads) const {
  const std::int64_t stride = qkvz_stride(inputs);
  access_.check_inputs(inputs, stride);
  const std::int64_t B = inputs.batch, HV = shape_.HV, V = shape_.V, KV = shape_.K * shape_.V;
  const std::int64_t conv_row = shape_.conv_channels() * (shape_.W - 1);
  const GdnWeightsF64 weights = to_f64(inputs.weights, shape_);

  outputs.out.resize(static_cast<std::size_t>(B * HV * V));
  outputs.conv_state.resize(static_cast<std::size_t>(B * conv_row));
  const std::int64_t state_span = (B - 1) * access_.state_row_stride() + layouts_.state.row_size;
  // Offsets that hold no element keep what the input held, as an in-place kernel leaves them.
  if (access_.state_rows_dense())
    outputs.state.resize(static_cast<std::size_t>(state_span));
  else
    outputs.state.assign(inputs.state.begin(), inputs.state.begin() + state_span);

  auto part_of_row = [&](std::int64_t r, std::int64_t first_head, std::int64_t end_head) {
    GdnRowData row;
    GdnHeadResult result;
    std::vector<double> head_state, convolved;
    access_.read_row(inputs, r, stride, row, false);
    convolve_row(row, weights, convolved);
    const std::int64_t state_row = r * access_.state_row_stride();
    for (std::int64_t hv = first_head; hv < end_head; ++hv) {
      GdnHeadInputs head = head_inputs(row, weights, hv, key_head_of(hv));
      use_convolved(convolved, hv, key_head_of(hv), head);
      if (access_.state_rows_contiguous()) {
        const std::int64_t offset = state_row + access_.head_state_offset(hv);
        compute_value_head(shape_, head,
                           GdnStoredState{inputs.state.data() + offset,
                                          outputs.state.data() + offset, access_.state_k_stride()},
                           result, faults_.head);
      } else {
        head_state.resize(static_cast<std::size_t>(KV));
        access_.read_head_state(inputs.state, r, hv, head_state.data());
        head.state = head_state;
        compute_value_head(shape_, head, result, true, faults_.head);
        access_.write_head_state(result.state.data(), r, hv, outputs.state);
      }
      for (std::int64_t v = 0; v < V; ++v)
        outputs.out[static_cast<std::size_t>((r * HV + hv) * V + v)] =
            float_to_bf16(static_cast<float>(result.out[static_cast<std::size_t>(v)]));
    }
    if (first_head == 0)
      shift_conv_state(shape_, inputs.conv_state.data() + r * conv_row, row,
                       outputs.conv_state.data() + r * conv_row);
  };
  for_each_row_part(B, HV, thread_count(threads), part_of_row);
}

GdnReferenceSession::GdnReferenceSession(const GdnReference& reference, GdnStepInputs initial)
    : reference_(reference), inputs_(std::move(initial)) {}

const GdnReferenceOutputs& GdnReferenceSession::advance() {
  if (steps_ == 0) {
    last_ = reference_.step_exact(inputs_);
  } else {
    GdnReferenceOutputs previous = std::move(last_);
    inputs_.conv_state = std::move(previous.conv_state);
    last_ = reference_.step_exact(inputs_, std::span<const double>(previous.state));
  }
  ++steps_;
  return last_;
}

const GdnReferenceOutputs& GdnReferenceSession::advance(std::vector<bf16_bits> qkvz,
                                                        std::vector<bf16_bits> ba) {
  inputs_.qkvz = std::move(qkvz);
  inputs_.ba = std::move(ba);
  return advance();
}

}  // namespace layoutcheck
