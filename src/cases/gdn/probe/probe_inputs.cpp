#include "cases/gdn/probe/probe_inputs.h"

#include <stdexcept>
#include <string>

#include "cases/gdn/random_problem.h"

namespace layoutcheck {
namespace {

// Row 0 of a one-row logical problem copied into every row, so every row has the same base.
GdnLogicalInputs repeated_rows(const GdnLogicalInputs& one, std::int64_t batch) {
  GdnLogicalInputs many = one;
  many.batch = batch;
  auto repeat = [batch](auto& values) {
    const auto row = values;
    values.clear();
    for (std::int64_t r = 0; r < batch; ++r) values.insert(values.end(), row.begin(), row.end());
  };
  repeat(many.q);
  repeat(many.k);
  repeat(many.v);
  repeat(many.z);
  repeat(many.b);
  repeat(many.a);
  repeat(many.conv_state);
  repeat(many.state);
  return many;
}

}  // namespace

ProbeInputs::ProbeInputs(const ProbeTarget& target, OneHotValues values, std::int64_t batch,
                         std::uint64_t seed)
    : buffer_(target.buffer),
      values_(values),
      row_size_(target.producer.row_size),
      row_stride_(row_stride(target.producer)) {
  if (batch < 1) throw std::invalid_argument("probe batch must be at least 1");
  // Random conv state and weights (fixed layouts) give every channel and head its own response.
  const GdnLogicalInputs logical =
      repeated_rows(make_random_logical_inputs(target.shape, 1, seed), batch);
  inputs_ = lay_out(logical, target.consumer);
  // Every contract-laid-out buffer is constant, the probed one laid out by the producer. A
  // constant looks the same under any layout, so a kernel that misreads a buffer not probed
  // cannot disturb the probe of this one.
  auto span = [batch](const Contract& contract) {
    return static_cast<std::size_t>((batch - 1) * row_stride(contract) + contract.row_size);
  };
  auto base = [&](GdnBuffer buffer) {
    return buffer == buffer_ ? values.base : default_one_hot_values(buffer).base;
  };
  const Contract& qkvz = buffer_ == GdnBuffer::qkvz ? target.producer : target.consumer.qkvz;
  const Contract& ba = buffer_ == GdnBuffer::ba ? target.producer : target.consumer.ba;
  const Contract& state = buffer_ == GdnBuffer::state ? target.producer : target.consumer.state;
  inputs_.qkvz.assign(span(qkvz), float_to_bf16(base(GdnBuffer::qkvz)));
  inputs_.qkvz_row_stride = row_stride(qkvz);
  inputs_.ba.assign(span(ba), float_to_bf16(base(GdnBuffer::ba)));
  inputs_.ba_row_stride = row_stride(ba);
  inputs_.state.assign(span(state), base(GdnBuffer::state));
}

void ProbeInputs::write(std::int64_t index, bool hot) {
  const float value = hot ? values_.hot : values_.base;
  const auto i = static_cast<std::size_t>(index);
  switch (buffer_) {
    case GdnBuffer::qkvz:
      inputs_.qkvz[i] = float_to_bf16(value);
      break;
    case GdnBuffer::ba:
      inputs_.ba[i] = float_to_bf16(value);
      break;
    case GdnBuffer::state:
      inputs_.state[i] = value;
      break;
  }
}

void ProbeInputs::set_hot(std::int64_t row, std::int64_t offset) {
  if (row < 0 || row >= inputs_.batch || offset < 0 || offset >= row_size_)
    throw std::out_of_range("probe at row " + std::to_string(row) + ", offset " +
                            std::to_string(offset) + " is outside the probed rows");
  const std::int64_t index = row * row_stride_ + offset;
  write(index, true);
  hot_.push_back(index);
}

void ProbeInputs::clear_hot() {
  for (std::int64_t index : hot_) write(index, false);
  hot_.clear();
}

}  // namespace layoutcheck
