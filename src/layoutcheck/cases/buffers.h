// The named buffers of a case, as host memory: what a runner reads and writes in one call.
// A buffer is raw bytes of `elements` values of one dtype, laid out by the contract the case
// gives it (rows `row_stride` elements apart), so any kernel's buffers fit one type and the probe
// engine can write a one-hot or a bit pattern into any of them without knowing the operator.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

// What a kernel does with a buffer. The probe engine perturbs inputs (and in-place buffers) and
// observes outputs (and in-place buffers).
enum class BufferRole {
  input,     // read only
  output,    // written; its contents before the call mean nothing
  in_place,  // read, then written (a recurrent state, a KV cache)
};

std::string_view buffer_role_name(BufferRole role);  // "input", "output", "in-place"

// A buffer a case declares: its name, role, dtype and the contract that describes a row of it by
// default (relative to the contracts folder; empty for buffers with no layout of interest, such as
// weights).
struct BufferSpec {
  std::string name;
  BufferRole role = BufferRole::input;
  DType dtype = DType::bf16;
  std::string contract;  // e.g. "rope/half_split.x.yaml"
  std::string description;
  bool reads(/*by the kernel*/) const { return role != BufferRole::output; }
  bool writes() const { return role != BufferRole::input; }
};

struct HostBuffer {
  std::string name;
  DType dtype = DType::bf16;
  std::int64_t rows = 1;
  std::int64_t row_stride = 0;  // elements between consecutive rows
  std::vector<std::uint8_t> bytes;

  std::int64_t elements() const {
    return static_cast<std::int64_t>(bytes.size()) / dtype_bytes(dtype);
  }
  int width() const { return dtype_bytes(dtype); }

  // The element at `index` as its raw bits (little-endian, zero-extended to 64 bits).
  std::uint64_t bits(std::int64_t index) const {
    std::uint64_t value = 0;
    std::memcpy(&value, bytes.data() + index * width(), static_cast<std::size_t>(width()));
    return value;
  }
  void set_bits(std::int64_t index, std::uint64_t value) {
    std::memcpy(bytes.data() + index * width(), &value, static_cast<std::size_t>(width()));
  }
  // The element at `index` as a number, whatever the dtype; set_value rounds to the dtype
  // (round to nearest even for bf16 and fp16, saturating for integers).
  double value(std::int64_t index) const;
  void set_value(std::int64_t index, double value);
  // Typed views; @pre sizeof(T) == width().
  template <class T>
  std::span<T> as() {
    return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
  template <class T>
  std::span<const T> as() const {
    return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
};

// `rows` rows of `contract` (row_stride from its row dims, else its row size), zero-filled.
HostBuffer make_host_buffer(std::string name, const Contract& contract, std::int64_t rows);
HostBuffer make_host_buffer(std::string name, DType dtype, std::int64_t elements);

// The same logical contents laid out as `to` instead of `from`: every element of every field of
// `to` takes its value from the same element of `from`'s field of that name; what `to` puts
// nowhere (padding) is zero. Bits are copied, so nothing rounds.
// @pre buffer holds rows of `from`; both contracts have the buffer's dtype.
HostBuffer relaid_out(const HostBuffer& buffer, const Contract& from, const Contract& to);

class BufferSet {
 public:
  HostBuffer& add(HostBuffer buffer);
  // @post throws std::out_of_range naming the buffer when absent.
  HostBuffer& at(std::string_view name);
  const HostBuffer& at(std::string_view name) const;
  const HostBuffer* find(std::string_view name) const;
  std::vector<HostBuffer>& all() { return buffers_; }
  const std::vector<HostBuffer>& all() const { return buffers_; }

 private:
  std::vector<HostBuffer> buffers_;
};

}  // namespace layoutcheck
