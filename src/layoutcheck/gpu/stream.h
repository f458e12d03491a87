// Streams, events and graphs with ownership: the objects the timing and the runners need.
#pragma once

#include <functional>

#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {

class Stream {
 public:
  // Blocking (the default) orders the stream after the synchronous copies and memsets DeviceBuffer
  // makes; a non-blocking stream suits graph capture and replay of work whose inputs are ready.
  enum class Kind { blocking, non_blocking };
  explicit Stream(Kind kind = Kind::blocking);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();
  hipStream_t get() const { return stream_; }
  void synchronize() const;

 private:
  hipStream_t stream_ = nullptr;
};

class Event {
 public:
  Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();
  hipEvent_t get() const { return event_; }
  void record(const Stream& stream);
  void synchronize() const;
  // Milliseconds from start to this event; both recorded and complete.
  float milliseconds_since(const Event& start) const;

 private:
  hipEvent_t event_ = nullptr;
};

// A graph captured from whatever enqueue() puts on the stream, instantiated once, replayed often.
class Graph {
 public:
  // @pre enqueue only launches kernels/copies on the given stream (no synchronisation).
  Graph(const Stream& stream, const std::function<void(hipStream_t)>& enqueue);
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph();
  void launch(const Stream& stream) const;

 private:
  hipGraph_t graph_ = nullptr;
  hipGraphExec_t executable_ = nullptr;
};

}  // namespace layoutcheck::gpu
