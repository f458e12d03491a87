#include "layoutcheck/cases/buffers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "layoutcheck/platform/bf16.h"
#include "layoutcheck/platform/fp16.h"

namespace layoutcheck {

std::string_view buffer_role_name(BufferRole role) {
  switch (role) {
    case BufferRole::input:
      return "input";
    case BufferRole::output:
      return "output";
    case BufferRole::in_place:
      return "in-place";
  }
  return "?";
}

namespace {

template <class T>
std::uint64_t saturated_bits(double value) {
  if (std::isnan(value)) return 0;
  const double low = static_cast<double>(std::numeric_limits<T>::min());
  const double high = static_cast<double>(std::numeric_limits<T>::max());
  const T integer = static_cast<T>(std::clamp(std::nearbyint(value), low, high));
  std::uint64_t bits = 0;
  std::memcpy(&bits, &integer, sizeof integer);
  return bits;
}

template <class T>
double signed_value(std::uint64_t bits) {
  T integer;
  std::memcpy(&integer, &bits, sizeof integer);
  return static_cast<double>(integer);
}

}  // namespace

double HostBuffer::value(std::int64_t index) const {
  const std::uint64_t raw = bits(index);
  switch (dtype) {
    case DType::bf16:
      return bf16_to_float(static_cast<bf16_bits>(raw));
    case DType::fp16:
      return fp16_to_float(static_cast<fp16_bits>(raw));
    case DType::fp32:
      return bits_float(static_cast<std::uint32_t>(raw));
    case DType::fp64: {
      double result;
      std::memcpy(&result, &raw, sizeof result);
      return result;
    }
    case DType::i8:
      return signed_value<std::int8_t>(raw);
    case DType::u8:
      return static_cast<double>(raw);
    case DType::i16:
      return signed_value<std::int16_t>(raw);
    case DType::i32:
      return signed_value<std::int32_t>(raw);
    case DType::i64:
      return signed_value<std::int64_t>(raw);
  }
  return 0;
}

void HostBuffer::set_value(std::int64_t index, double value) {
  std::uint64_t raw = 0;
  switch (dtype) {
    case DType::bf16:
      raw = float_to_bf16(static_cast<float>(value));
      break;
    case DType::fp16:
      raw = float_to_fp16(static_cast<float>(value));
      break;
    case DType::fp32:
      raw = float_bits(static_cast<float>(value));
      break;
    case DType::fp64:
      std::memcpy(&raw, &value, sizeof value);
      break;
    case DType::i8:
      raw = saturated_bits<std::int8_t>(value);
      break;
    case DType::u8:
      raw = saturated_bits<std::uint8_t>(value);
      break;
    case DType::i16:
      raw = saturated_bits<std::int16_t>(value);
      break;
    case DType::i32:
      raw = saturated_bits<std::int32_t>(value);
      break;
    case DType::i64:
      raw = saturated_bits<std::int64_t>(value);
      break;
  }
  set_bits(index, raw);
}

HostBuffer make_host_buffer(std::string name, const Contract& contract, std::int64_t rows) {
  HostBuffer buffer;
  buffer.name = std::move(name);
  buffer.dtype = contract.dtype;
  buffer.rows = rows;
  buffer.row_stride = row_stride(contract);
  const std::int64_t span = rows > 0 ? (rows - 1) * buffer.row_stride + contract.row_size : 0;
  buffer.bytes.assign(static_cast<std::size_t>(span * dtype_bytes(contract.dtype)), 0);
  return buffer;
}

HostBuffer make_host_buffer(std::string name, DType dtype, std::int64_t elements) {
  HostBuffer buffer;
  buffer.name = std::move(name);
  buffer.dtype = dtype;
  buffer.rows = 1;
  buffer.row_stride = elements;
  buffer.bytes.assign(static_cast<std::size_t>(elements * dtype_bytes(dtype)), 0);
  return buffer;
}

HostBuffer relaid_out(const HostBuffer& buffer, const Contract& from, const Contract& to) {
  HostBuffer result = make_host_buffer(buffer.name, to, buffer.rows);
  for (const Field& target : to.fields) {
    const Field* source = from.find_field(target.name);
    if (source == nullptr || source->elements() != target.elements()) continue;
    const std::vector<std::int64_t> source_offsets = source->offsets();
    target.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      const std::int64_t from_offset = source_offsets[static_cast<std::size_t>(linear)];
      for (std::int64_t row = 0; row < buffer.rows; ++row)
        result.set_bits(row * result.row_stride + offset,
                        buffer.bits(row * buffer.row_stride + from_offset));
    });
  }
  return result;
}

HostBuffer& BufferSet::add(HostBuffer buffer) {
  for (HostBuffer& existing : buffers_)
    if (existing.name == buffer.name) return existing = std::move(buffer);
  buffers_.push_back(std::move(buffer));
  return buffers_.back();
}

HostBuffer& BufferSet::at(std::string_view name) {
  for (HostBuffer& buffer : buffers_)
    if (buffer.name == name) return buffer;
  throw std::out_of_range("no buffer named '" + std::string(name) + "'");
}

const HostBuffer& BufferSet::at(std::string_view name) const {
  return const_cast<BufferSet*>(this)->at(name);
}

const HostBuffer* BufferSet::find(std::string_view name) const {
  for (const HostBuffer& buffer : buffers_)
    if (buffer.name == name) return &buffer;
  return nullptr;
}

}  // namespace layoutcheck
