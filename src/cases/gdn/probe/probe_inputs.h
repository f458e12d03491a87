// The inputs of a one-hot sweep: the probed buffer constant in every row (laid out by the producer,
// gaps included) but for one hot element per row; the other contract-laid-out buffers constant too,
// so that only the probed buffer is under test; the conv state and the weights random (fixed
// layouts), identical in every row, so that every logical element has its own response.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cases/gdn/probe/probe_options.h"
#include "cases/gdn/problem.h"

namespace layoutcheck {

class ProbeInputs {
 public:
  // @pre the target was validated (probe_sweep.h does).
  ProbeInputs(const ProbeTarget& target, OneHotValues values, std::int64_t batch,
              std::uint64_t seed);

  const GdnStepInputs& inputs() const { return inputs_; }
  std::int64_t batch() const { return inputs_.batch; }

  // Puts the hot value at (row, offset of the probed row); clear_hot() restores every hot element
  // to the base value.
  void set_hot(std::int64_t row, std::int64_t offset);
  void clear_hot();

 private:
  void write(std::int64_t index, bool hot);

  GdnStepInputs inputs_;
  GdnBuffer buffer_;
  OneHotValues values_;
  std::int64_t row_size_ = 0, row_stride_ = 0;
  std::vector<std::int64_t> hot_;  // buffer indices holding the hot value
};

}  // namespace layoutcheck
