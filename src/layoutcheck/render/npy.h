// An int32 vector as a NumPy .npy file (format 1.0, little-endian '<i4', one dimension), so a
// generated index map reaches a user's kernel or test as numpy.load(path) or, in C++, as the
// raw array after the header (its length in the header's first 10 bytes: magic, version, size).
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace layoutcheck {

// The whole file's bytes. The header is padded with spaces to a multiple of 64 bytes, as
// NumPy writes it, so the data starts aligned.
std::string npy_int32(std::span<const std::int32_t> values);

// The values alone, little-endian, 4 bytes each.
std::string raw_int32(std::span<const std::int32_t> values);

}  // namespace layoutcheck
