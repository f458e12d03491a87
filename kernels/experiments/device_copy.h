// The experiments' device buffers: a host vector copied into fresh device memory, never freed
// (each experiment is one short process).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "cuda_check.h"

template <class T>
T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  CK(cudaMalloc(&device, host.size() * sizeof(T)));
  CK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}
