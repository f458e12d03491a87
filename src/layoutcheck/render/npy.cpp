#include "layoutcheck/render/npy.h"

namespace layoutcheck {

std::string raw_int32(std::span<const std::int32_t> values) {
  std::string bytes;
  bytes.reserve(values.size() * 4);
  for (const std::int32_t value : values) {
    const auto bits = static_cast<std::uint32_t>(value);
    for (int shift = 0; shift < 32; shift += 8) bytes.push_back(static_cast<char>(bits >> shift));
  }
  return bytes;
}

std::string npy_int32(std::span<const std::int32_t> values) {
  std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (" +
                       std::to_string(values.size()) + ",), }";
  // magic (6) + version (2) + header length (2) + header, ending in '\n', to a multiple of 64.
  const std::size_t prefix = 10;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header.push_back('\n');
  std::string bytes = "\x93NUMPY";
  bytes.push_back('\x01');
  bytes.push_back('\x00');
  bytes.push_back(static_cast<char>(header.size() & 0xFF));
  bytes.push_back(static_cast<char>(header.size() >> 8));
  return bytes + header + raw_int32(values);
}

}  // namespace layoutcheck
