// Declared memory traffic, nvbench-style: every stage of a path says how many launches it makes
// and how many bytes it reads and writes per layer, so the floor (bytes ÷ copy bandwidth) and the
// fraction of bandwidth reached follow from a measured time. Bytes grow with the batch: a stage
// moves `fixed` bytes once (weights) plus `per_row` bytes for every batch row (inputs, state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace layoutcheck {

struct ByteCount {
  std::int64_t fixed = 0;    // independent of the batch (weights, per-layer parameters)
  std::int64_t per_row = 0;  // for each batch row

  // @pre batch >= 0; throws std::overflow_error if the product does not fit in 64 bits.
  std::int64_t at(std::int64_t batch) const;
  ByteCount& operator+=(const ByteCount& other);
  friend ByteCount operator+(ByteCount left, const ByteCount& right) { return left += right; }
  friend bool operator==(const ByteCount&, const ByteCount&) = default;
};

struct StageTraffic {
  std::string name;           // "conv update", "adapter qkvz flat->interleaved"
  std::int64_t launches = 1;  // kernel launches (or copies) per layer
  ByteCount bytes_read;       // per layer
  ByteCount bytes_written;    // per layer
  // False for work the production path never does (a layout conversion, an extra copy): the
  // fairness table flags it, and a baseline holding such a stage overstates every speed-up.
  bool production_runs_it = true;
  std::string note;  // why it is (not) production work, shown beside the flag
};

// Sums over the stages of one path, per layer.
std::int64_t total_launches(const std::vector<StageTraffic>& stages);
ByteCount total_bytes(const std::vector<StageTraffic>& stages);  // read + written

// The time in µs that moving `bytes` takes at `bytes_per_second`: the floor of a figure.
// @pre bytes_per_second > 0 (else std::invalid_argument).
double floor_us(std::int64_t bytes, double bytes_per_second);

// The fraction of `bytes_per_second` reached when `bytes` move in `time_us` (1.0 = at the floor).
// @pre time_us > 0 and bytes_per_second > 0 (else std::invalid_argument).
double bandwidth_fraction(std::int64_t bytes, double time_us, double bytes_per_second);

}  // namespace layoutcheck
