// The GDN decode paths on the GPU (design §7), each a sequence of launches on one stream so that a
// whole model's worth of layers can be captured into one graph:
//   baseline          production on the flat layout: conv, gating, recurrent, gated RMSNorm
//   adapter+upstream  flat -> interleaved adapters (qkvz, ba), then the upstream fused kernel
//   native            the fused kernel reading the flat layout directly
//   upstream-direct   the upstream fused kernel fed the flat buffers unmodified: the bug of
//                     design §1 step 2; it runs, and its output is wrong
// Every path reads the same GdnDeviceLayer (flat qkvz/ba as the model produces them).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/gdn/gdn_kernels.h"
#include "cases/gdn/standard_layouts.h"
#include "layoutcheck/gpu/buffer.h"
#include "cases/gdn/gpu/gdn_device_layer.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::gpu {

enum class GdnPath { baseline, adapter_upstream, native, upstream_direct };

std::string_view gdn_path_name(GdnPath path);  // "baseline", "adapter+upstream", ...
const std::vector<GdnPath>& all_gdn_paths();

struct GdnPathOptions {
  StateOrder state_order = StateOrder::hkv;  // the state layout every path's kernels use
  // How the fused/recurrent kernels cover a head's state (kernels/gdn/gdn_kernels.h); unset: chosen
  // per batch and device.
  std::optional<kernels::StateSplit> split;
  // Overlapped: each kernel may start while the one before it on the stream finishes
  // (kernels/launch_order.h), and the splits are chosen for it. The caller keeps the contract: the
  // kernel before a layer's first launch writes none of that layer's state, conv state or weights
  // (true between the layers of a model, false between two steps of one layer).
  kernels::LaunchOrder launch = kernels::LaunchOrder::serial;
};

// Device scratch one path needs besides the layer: sync counters (zeroed here, left zero by
// every launch), the fused kernels' workspace, the adapters' interleaved copies and the
// baseline's intermediates. One workspace serves any number of layers run in stream order.
struct GdnPathWorkspace {
  GdnShape shape;
  std::int64_t batch = 0;
  DeviceBuffer<int> sync_counters;
  DeviceBuffer<float> floats;
  DeviceBuffer<bf16_bits> interleaved_qkvz, interleaved_ba;  // adapter+upstream
  DeviceBuffer<float> conv_out, g, beta;                     // baseline
  DeviceBuffer<bf16_bits> core_out;                          // baseline, o before the norm
};

// One stage of a path as it launches; the bench's fairness table declares bytes separately.
struct GdnPathStage {
  std::string name;
  bool production_runs_it = true;
};

class GdnPathLauncher {
 public:
  // @throws GpuError when options.launch is overlapped and the device or the build cannot
  // (overlapped_launch_refusal).
  explicit GdnPathLauncher(GdnPath path, GdnPathOptions options = {});

  GdnPath path() const { return path_; }
  std::string_view name() const { return gdn_path_name(path_); }
  const GdnPathOptions& options() const { return options_; }
  std::vector<GdnPathStage> stages() const;

  // @post a workspace for layers of this shape and batch, counters zeroed (synchronously).
  std::unique_ptr<GdnPathWorkspace> make_workspace(const GdnShape& shape, std::int64_t batch) const;

  // Enqueues one decode step of `layer` on stream (no synchronisation; capturable). `launch`
  // overrides options().launch and keeps the splits chosen for it: a single step, or a graph whose
  // launches share one layer's state, launches serially the kernels an overlapped graph times
  // (an overlapped override is refused as the constructor refuses it).
  // @pre workspace made for layer's shape and batch.
  void enqueue(GdnDeviceLayer& layer, GdnPathWorkspace& workspace, hipStream_t stream,
               std::optional<kernels::LaunchOrder> launch = std::nullopt) const;

  // The split the fused/recurrent kernels use for this batch on this device.
  kernels::StateSplit split_for(const GdnShape& shape, std::int64_t batch) const;

 private:
  GdnPath path_;
  GdnPathOptions options_;
};

}  // namespace layoutcheck::gpu
