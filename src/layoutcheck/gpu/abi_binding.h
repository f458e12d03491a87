// How a runtime-compiled port's single by-value argument is packed, per kernel ABI (AbiSpec in
// cases/case.h): the toolkit uploads a case's BufferSet to the device (DeviceBufferSet), and the
// case's binding turns device pointers, host row strides and the run's symbols into the bytes of
// its argument struct. Bindings are registered by the cases' GPU halves
// (src/cases/builtin_gpu_cases.cpp); the toolkit names none.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/cases/buffers.h"
#include "layoutcheck/contract/expression.h"
#include "layoutcheck/gpu/buffer.h"

namespace layoutcheck::gpu {

// The device copies of a BufferSet, by buffer name. Each is followed by a guard zone
// (gpu/buffer.h), set at every upload: guard_findings says which a kernel wrote past.
class DeviceBufferSet {
 public:
  // guard_bytes 0: buffers of exactly their size, for a run under compute-sanitizer's memcheck,
  // which then sees any access past an end (a guard zone hides reads from it).
  explicit DeviceBufferSet(std::size_t guard_bytes = kGuardBytes) : guard_bytes_(guard_bytes) {}

  // Copies every buffer of `host` to the device, allocating those that are new or changed size,
  // and sets every guard zone.
  void upload(const BufferSet& host);
  // The buffers whose guard zone changed since the upload: (buffer, message naming the first
  // changed bytes past its end).
  std::vector<std::pair<std::string, std::string>> guard_findings() const;
  // Copies the named device buffer back into host's buffer of that name.
  void download(BufferSet& host, std::string_view name) const;
  // Every byte of the named buffer set to byte_value (poisoning outputs before a run).
  void fill_bytes(std::string_view name, int byte_value);
  // @post throws GpuError naming the buffer when it was never uploaded.
  void* data(std::string_view name) const;

 private:
  std::size_t guard_bytes_;
  std::map<std::string, DeviceBuffer<std::uint8_t>, std::less<>> buffers_;
};

struct AbiBinding {
  std::string abi;  // "rope_apply_v1"
  // The argument struct's bytes. symbols: the run's (contract symbols, batch, wave_size).
  // @post throws InputError (rule "abi") when a symbol or buffer it needs is missing.
  std::function<std::vector<std::uint8_t>(const DeviceBufferSet& device, const BufferSet& host,
                                          const SymbolTable& symbols)>
      pack;
};

class AbiBindingRegistry {
 public:
  static AbiBindingRegistry& instance();
  void add(AbiBinding binding);  // one of the same ABI is replaced
  // @post throws InputError (rule "abi") listing the registered ABIs when `abi` has no binding.
  AbiBinding get(std::string_view abi) const;
  std::vector<std::string> names() const;

 private:
  mutable std::mutex mutex_;
  std::vector<AbiBinding> bindings_;
};

// Helpers for bindings: a symbol or raw bytes of a trivially copyable struct.
std::int64_t required_symbol(const SymbolTable& symbols, std::string_view name,
                             std::string_view abi);
template <class T>
std::vector<std::uint8_t> argument_bytes(const T& value) {
  const auto* begin = reinterpret_cast<const std::uint8_t*>(&value);
  return {begin, begin + sizeof(T)};
}

}  // namespace layoutcheck::gpu
