// The experiments' timing, the bench's way: `warmup` untimed replays of an instantiated CUDA graph,
// then `replays` timed with events, each as microseconds per layer (replay time / layers). The
// graph's last replay is the last thing run, so anything it records stays readable after.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "cuda_check.h"

// A graph captured (global mode) from whatever body(stream) enqueues, instantiated once.
class CapturedGraph {
 public:
  template <class Body>
  CapturedGraph(cudaStream_t stream, Body body) {
    CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    body(stream);
    CK(cudaStreamEndCapture(stream, &graph_));
    CK(cudaGraphInstantiate(&exec_, graph_, nullptr, nullptr, 0));
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  ~CapturedGraph() {
    (void)cudaGraphExecDestroy(exec_);
    (void)cudaGraphDestroy(graph_);
  }
  cudaGraphExec_t exec() const { return exec_; }
  void launch(cudaStream_t stream) const { CK(cudaGraphLaunch(exec_, stream)); }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// The same timing for whatever launch() replays on `stream` (a graph of another owner).
template <class Launch>
std::vector<double> time_replays_per_layer(Launch launch, cudaStream_t stream, int warmup,
                                           int replays, int layers) {
  for (int i = 0; i < warmup; ++i) launch();
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  std::vector<double> us;
  for (int i = 0; i < replays; ++i) {
    CK(cudaEventRecord(start, stream));
    launch();
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

inline std::vector<double> replay_us_per_layer(cudaGraphExec_t exec, cudaStream_t stream,
                                               int warmup, int replays, int layers) {
  return time_replays_per_layer([&] { CK(cudaGraphLaunch(exec, stream)); }, stream, warmup,
                                replays, layers);
}
