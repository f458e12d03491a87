// Device memory owned by one object: allocated on construction, freed on destruction, copied
// to and from host vectors with every call checked. Optionally followed by a guard zone, bytes
// past the elements holding kGuardByte: a kernel writing past the buffer's end changes them, and
// guard_damage says where.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {

inline constexpr std::size_t kGuardBytes = 4096;
inline constexpr std::uint8_t kGuardByte = 0xA5;

// Bytes of a guard zone a kernel changed.
struct GuardDamage {
  std::size_t changed = 0;
  std::size_t first = 0;  // bytes past the buffer's end
};

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count, std::size_t guard_bytes = 0)
      : count_(count), guard_bytes_(guard_bytes) {
    if (count_ + guard_bytes_ > 0) {
      void* pointer = nullptr;
      LC_GPU_CHECK(hipMalloc(&pointer, bytes() + guard_bytes_));
      data_ = static_cast<T*>(pointer);
      set_guard();
    }
  }
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        count_(std::exchange(other.count_, 0)),
        guard_bytes_(std::exchange(other.guard_bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
      guard_bytes_ = std::exchange(other.guard_bytes_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  // @pre host.size() == size()
  void upload(std::span<const T> host) {
    if (host.size() != count_) throw GpuError("DeviceBuffer::upload: size mismatch");
    if (count_ > 0) LC_GPU_CHECK(hipMemcpy(data_, host.data(), bytes(), hipMemcpyHostToDevice));
    settle();
  }
  void download(std::span<T> host) const {
    if (host.size() != count_) throw GpuError("DeviceBuffer::download: size mismatch");
    if (count_ > 0) LC_GPU_CHECK(hipMemcpy(host.data(), data_, bytes(), hipMemcpyDeviceToHost));
  }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    download(host);
    return host;
  }
  // Into a vector an earlier call may have sized already (no reallocation then).
  void download_into(std::vector<T>& host) const {
    host.resize(count_);
    download(host);
  }
  // Every byte set to byte_value (poisoning before a run proves every element is written).
  void fill_bytes(int byte_value) {
    if (count_ > 0) LC_GPU_CHECK(hipMemset(data_, byte_value, bytes()));
    settle();
  }

  std::size_t guard_bytes() const { return guard_bytes_; }
  // The guard zone back to kGuardByte (after a kernel wrote there).
  void set_guard() {
    if (guard_bytes_ > 0)
      LC_GPU_CHECK(
          hipMemset(reinterpret_cast<std::uint8_t*>(data_) + bytes(), kGuardByte, guard_bytes_));
    settle();
  }
  // What a kernel wrote past the end since the guard was set; nullopt when nothing.
  std::optional<GuardDamage> guard_damage() const {
    if (guard_bytes_ == 0) return std::nullopt;
    std::vector<std::uint8_t> guard(guard_bytes_);
    LC_GPU_CHECK(hipMemcpy(guard.data(), reinterpret_cast<const std::uint8_t*>(data_) + bytes(),
                           guard_bytes_, hipMemcpyDeviceToHost));
    GuardDamage damage{0, guard_bytes_};
    for (std::size_t i = 0; i < guard_bytes_; ++i)
      if (guard[i] != kGuardByte) {
        damage.first = std::min(damage.first, i);
        ++damage.changed;
      }
    if (damage.changed == 0) return std::nullopt;
    return damage;
  }

 private:
  // hipMemset and a copy from pageable memory may still be running when they return, on the
  // default stream, which a non-blocking stream does not wait for: wait here, so a kernel
  // launched next on any stream sees the bytes.
  void settle() const { LC_GPU_CHECK(hipStreamSynchronize(nullptr)); }

  void release() noexcept {
    if (data_ != nullptr) (void)hipFree(data_);  // destructors must not throw
    data_ = nullptr;
    count_ = 0;
    guard_bytes_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
  std::size_t guard_bytes_ = 0;
};

// "12 of the 4096 bytes after 'out' were written, the first 0 bytes past its end (byte offset
// 1024)": the message of a guard zone's damage.
std::string guard_damage_message(const std::string& buffer, std::size_t buffer_bytes,
                                 std::size_t guard_bytes, const GuardDamage& damage);

}  // namespace layoutcheck::gpu
