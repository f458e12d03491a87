#include "layoutcheck/probe/data_movement.h"

#include <stdexcept>

namespace layoutcheck {
namespace {

std::int64_t span_of_rows(const Contract& contract, std::int64_t batch) {
  return (batch - 1) * row_stride(contract) + contract.row_size;
}

std::vector<bf16_bits> run_checked(DataMovementRunner& runner,
                                   const std::vector<bf16_bits>& input) {
  std::vector<bf16_bits> output = runner.run(input);
  if (static_cast<std::int64_t>(output.size()) != runner.output_size())
    throw std::runtime_error(runner.name() + " returned " + std::to_string(output.size()) +
                             " elements, " + std::to_string(runner.output_size()) + " expected");
  return output;
}

}  // namespace

SourceMap probe_data_movement(DataMovementRunner& runner) {
  const std::int64_t inputs = runner.input_size(), outputs = runner.output_size();
  SourceMap map;
  map.source.assign(static_cast<std::size_t>(outputs), 0);
  // Presence: a copy follows the input from all-zero-bits to all-one-bits; a constant does not.
  const std::vector<bf16_bits> all_zero =
      run_checked(runner, std::vector<bf16_bits>(inputs, kBitZero));
  const std::vector<bf16_bits> all_one =
      run_checked(runner, std::vector<bf16_bits>(inputs, kBitOne));
  map.runs = 2;
  for (std::int64_t j = 0; j < outputs; ++j) {
    const auto i = static_cast<std::size_t>(j);
    if (all_zero[i] == all_one[i])
      map.source[i] = SourceMap::kConstant;
    else if (all_zero[i] != kBitZero || all_one[i] != kBitOne)
      map.source[i] = SourceMap::kNotACopy;
  }
  std::vector<bf16_bits> input(static_cast<std::size_t>(inputs));
  for (int bit = 0; (std::int64_t{1} << bit) < inputs; ++bit) {
    for (std::int64_t i = 0; i < inputs; ++i)
      input[static_cast<std::size_t>(i)] = (i >> bit) & 1 ? kBitOne : kBitZero;
    const std::vector<bf16_bits> output = run_checked(runner, input);
    ++map.runs;
    for (std::int64_t j = 0; j < outputs; ++j) {
      std::int64_t& source = map.source[static_cast<std::size_t>(j)];
      if (source < 0) continue;
      const bf16_bits value = output[static_cast<std::size_t>(j)];
      if (value == kBitOne)
        source |= std::int64_t{1} << bit;
      else if (value != kBitZero)
        source = SourceMap::kNotACopy;  // neither bit value: not a plain copy
    }
  }
  for (std::int64_t& source : map.source)
    if (source >= inputs) source = SourceMap::kNotACopy;
  return map;
}

AdapterVerdict check_adapter(DataMovementRunner& runner, const Contract& producer,
                             const Contract& consumer, std::int64_t batch) {
  require_same_fields(producer, consumer);
  if (runner.input_size() != span_of_rows(producer, batch) ||
      runner.output_size() != span_of_rows(consumer, batch))
    throw std::invalid_argument(runner.name() + " moves " + std::to_string(runner.input_size()) +
                                " -> " + std::to_string(runner.output_size()) + " elements; " +
                                std::to_string(batch) + " rows of the contracts need " +
                                std::to_string(span_of_rows(producer, batch)) + " -> " +
                                std::to_string(span_of_rows(consumer, batch)));
  AdapterVerdict verdict;
  verdict.sources = probe_data_movement(runner);
  const std::int64_t in_stride = row_stride(producer), out_stride = row_stride(consumer);
  ReadMap reads;
  reads.offsets.assign(static_cast<std::size_t>(consumer.elements()), ReadMap::kNotRead);
  std::int64_t start = 0;
  for (const Field& field : consumer.fields) {
    field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      std::int64_t& read = reads.offsets[static_cast<std::size_t>(start + linear)];
      for (std::int64_t row = 0; row < batch; ++row) {
        const std::int64_t source =
            verdict.sources.source[static_cast<std::size_t>(row * out_stride + offset)];
        std::int64_t here = ReadMap::kUnresolved;
        if (source == SourceMap::kConstant) {
          ++verdict.constants;
        } else if (source == SourceMap::kNotACopy) {
          ++verdict.not_copies;
        } else if (source / in_stride != row) {
          ++verdict.crossed_rows;
        } else {
          here = source % in_stride;
        }
        // Every row must copy the element from the same place.
        read = row == 0 ? here : (read == here ? read : ReadMap::kAmbiguous);
      }
    });
    start += field.elements();
  }
  verdict.reads = compare_reads(producer, consumer, reads);
  return verdict;
}

CpuAdapter::CpuAdapter(Contract producer, Contract consumer, std::int64_t batch)
    : producer_(std::move(producer)), consumer_(std::move(consumer)), batch_(batch) {
  require_same_fields(producer_, consumer_);
  gather_.assign(static_cast<std::size_t>(span_of_rows(consumer_, batch_)), -1);
  for (const Field& field : consumer_.fields) {
    const Field& source = *producer_.find_field(field.name);
    field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      const std::int64_t from = source.offset_of_linear(linear);
      for (std::int64_t row = 0; row < batch_; ++row)
        gather_[static_cast<std::size_t>(row * row_stride(consumer_) + offset)] =
            row * row_stride(producer_) + from;
    });
  }
}

std::string CpuAdapter::name() const {
  return "cpu adapter " + producer_.name + " -> " + consumer_.name;
}
std::int64_t CpuAdapter::input_size() const {
  return span_of_rows(producer_, batch_);
}
std::int64_t CpuAdapter::output_size() const {
  return span_of_rows(consumer_, batch_);
}

std::vector<bf16_bits> CpuAdapter::run(const std::vector<bf16_bits>& input) {
  std::vector<bf16_bits> output(gather_.size(), 0);
  for (std::size_t j = 0; j < gather_.size(); ++j)
    if (gather_[j] >= 0) output[j] = input[static_cast<std::size_t>(gather_[j])];
  return output;
}

}  // namespace layoutcheck
