// Device memory owned by one object: allocated on construction, freed on destruction, copied
// to and from host vectors with every call checked.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) {
      void* pointer = nullptr;
      LC_GPU_CHECK(hipMalloc(&pointer, bytes()));
      data_ = static_cast<T*>(pointer);
    }
  }
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) { upload(host); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
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
  }

 private:
  void release() noexcept {
    if (data_ != nullptr) (void)hipFree(data_);  // destructors must not throw
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace layoutcheck::gpu
