#include "layoutcheck/bench/traffic.h"

#include <stdexcept>

namespace layoutcheck {

std::int64_t ByteCount::at(std::int64_t batch) const {
  if (batch < 0) throw std::invalid_argument("traffic: negative batch");
  std::int64_t rows = 0;
  std::int64_t total = 0;
  if (__builtin_mul_overflow(per_row, batch, &rows) || __builtin_add_overflow(fixed, rows, &total))
    throw std::overflow_error("traffic: byte count overflows 64 bits");
  return total;
}

ByteCount& ByteCount::operator+=(const ByteCount& other) {
  if (__builtin_add_overflow(fixed, other.fixed, &fixed) ||
      __builtin_add_overflow(per_row, other.per_row, &per_row))
    throw std::overflow_error("traffic: byte count overflows 64 bits");
  return *this;
}

std::int64_t total_launches(const std::vector<StageTraffic>& stages) {
  std::int64_t launches = 0;
  for (const StageTraffic& stage : stages)
    if (__builtin_add_overflow(launches, stage.launches, &launches))
      throw std::overflow_error("traffic: launch count overflows 64 bits");
  return launches;
}

ByteCount total_bytes(const std::vector<StageTraffic>& stages) {
  ByteCount bytes;
  for (const StageTraffic& stage : stages) bytes += stage.bytes_read + stage.bytes_written;
  return bytes;
}

double floor_us(std::int64_t bytes, double bytes_per_second) {
  if (!(bytes_per_second > 0)) throw std::invalid_argument("traffic: bandwidth must be positive");
  return static_cast<double>(bytes) / bytes_per_second * 1e6;
}

double bandwidth_fraction(std::int64_t bytes, double time_us, double bytes_per_second) {
  if (!(time_us > 0)) throw std::invalid_argument("traffic: time must be positive");
  return floor_us(bytes, bytes_per_second) / time_us;
}

}  // namespace layoutcheck
