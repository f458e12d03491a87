#include "layoutcheck/gpu/stream.h"

#include "layoutcheck/gpu/check.h"

namespace layoutcheck::gpu {

Stream::Stream(Kind kind) {
  LC_GPU_CHECK(hipStreamCreateWithFlags(
      &stream_, kind == Kind::blocking ? hipStreamDefault : hipStreamNonBlocking));
}
Stream::~Stream() {
  (void)hipStreamDestroy(stream_);
}
void Stream::synchronize() const {
  LC_GPU_CHECK(hipStreamSynchronize(stream_));
}

Event::Event() {
  LC_GPU_CHECK(hipEventCreate(&event_));
}
Event::~Event() {
  (void)hipEventDestroy(event_);
}
void Event::record(const Stream& stream) {
  LC_GPU_CHECK(hipEventRecord(event_, stream.get()));
}
void Event::synchronize() const {
  LC_GPU_CHECK(hipEventSynchronize(event_));
}
float Event::milliseconds_since(const Event& start) const {
  float milliseconds = 0.0f;
  LC_GPU_CHECK(hipEventElapsedTime(&milliseconds, start.get(), event_));
  return milliseconds;
}

Graph::Graph(const Stream& stream, const std::function<void(hipStream_t)>& enqueue) {
  LC_GPU_CHECK(hipStreamBeginCapture(stream.get(), hipStreamCaptureModeThreadLocal));
  try {
    enqueue(stream.get());
  } catch (...) {
    hipGraph_t broken = nullptr;
    (void)hipStreamEndCapture(stream.get(), &broken);  // leave the stream usable
    if (broken != nullptr) (void)hipGraphDestroy(broken);
    throw;
  }
  LC_GPU_CHECK(hipStreamEndCapture(stream.get(), &graph_));
  try {
    LC_GPU_CHECK(hipGraphInstantiate(&executable_, graph_, nullptr, nullptr, 0));
  } catch (...) {
    (void)hipGraphDestroy(graph_);
    throw;
  }
}

Graph::~Graph() {
  if (executable_ != nullptr) (void)hipGraphExecDestroy(executable_);
  if (graph_ != nullptr) (void)hipGraphDestroy(graph_);
}

void Graph::launch(const Stream& stream) const {
  LC_GPU_CHECK(hipGraphLaunch(executable_, stream.get()));
}

}  // namespace layoutcheck::gpu
