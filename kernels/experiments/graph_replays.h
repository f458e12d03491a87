// The experiments' timing, the bench's way: `warmup` untimed replays of an instantiated CUDA graph,
// then `replays` timed with events, each as microseconds per layer (replay time / layers). The
// graph's last replay is the last thing run, so anything it records stays readable after.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "cuda_check.h"

inline std::vector<double> replay_us_per_layer(cudaGraphExec_t exec, cudaStream_t stream,
                                               int warmup, int replays, int layers) {
  for (int i = 0; i < warmup; ++i) CK(cudaGraphLaunch(exec, stream));
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  std::vector<double> us;
  for (int i = 0; i < replays; ++i) {
    CK(cudaEventRecord(start, stream));
    CK(cudaGraphLaunch(exec, stream));
    CK(cudaEventRecord(stop, stream));
    CK(cudaEventSynchronize(stop));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    us.push_back(ms * 1e3 / layers);
  }
  CK(cudaEventDestroy(start));
  CK(cudaEventDestroy(stop));
  return us;
}
