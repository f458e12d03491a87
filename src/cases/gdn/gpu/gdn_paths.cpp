#include "cases/gdn/gpu/gdn_paths.h"

#include <stdexcept>

#include "kernels/gdn/gdn_kernels.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/gpu/device.h"

namespace layoutcheck::gpu {
namespace {

// Launched overlapped where it cannot be, a kernel built without the wait would race the one
// before it, and on HIP the request would quietly run serially: refuse instead.
void require_launch_order(kernels::LaunchOrder launch) {
  if (launch != kernels::LaunchOrder::overlapped) return;
  if (const auto refusal = overlapped_launch_refusal(current_device()))
    throw GpuError("GDN path launched overlapped: " + *refusal);
}

}  // namespace

std::string_view gdn_path_name(GdnPath path) {
  switch (path) {
    case GdnPath::baseline:
      return "baseline";
    case GdnPath::adapter_upstream:
      return "adapter+upstream";
    case GdnPath::native:
      return "native";
    case GdnPath::upstream_direct:
      return "upstream-direct";
  }
  return "?";
}

const std::vector<GdnPath>& all_gdn_paths() {
  static const std::vector<GdnPath> paths = {GdnPath::baseline, GdnPath::adapter_upstream,
                                             GdnPath::native, GdnPath::upstream_direct};
  return paths;
}

GdnPathLauncher::GdnPathLauncher(GdnPath path, GdnPathOptions options)
    : path_(path), options_(options) {
  require_launch_order(options_.launch);
}

std::vector<GdnPathStage> GdnPathLauncher::stages() const {
  switch (path_) {
    case GdnPath::baseline:
      return {{"conv update"}, {"gating"}, {"recurrent update"}, {"gated RMSNorm"}};
    case GdnPath::adapter_upstream:
      return {{"adapter qkvz flat->interleaved", false},
              {"adapter ba flat->interleaved", false},
              {"fused decode (upstream layout)"}};
    case GdnPath::native:
      return {{"fused decode (native layout)"}};
    case GdnPath::upstream_direct:
      return {{"fused decode (upstream layout) on flat buffers"}};
  }
  return {};
}

kernels::StateSplit GdnPathLauncher::split_for(const GdnShape& shape, std::int64_t batch) const {
  if (options_.split) return *options_.split;
  GdnDecodeArgs args{};
  args.batch = batch;
  args.H = shape.H;
  args.HV = shape.HV;
  args.K = shape.K;
  args.V = shape.V;
  const int multiprocessors = current_device().multiprocessors;
  return path_ == GdnPath::baseline
             ? kernels::choose_recurrent_split(args, multiprocessors)
             : kernels::choose_fused_split(args, multiprocessors, options_.launch);
}

std::unique_ptr<GdnPathWorkspace> GdnPathLauncher::make_workspace(const GdnShape& shape,
                                                                  std::int64_t batch) const {
  auto workspace = std::make_unique<GdnPathWorkspace>();
  workspace->shape = shape;
  workspace->batch = batch;
  const auto count = [](std::int64_t n) { return static_cast<std::size_t>(n); };
  workspace->sync_counters =
      DeviceBuffer<int>(count(kernels::gdn_sync_counters(batch, shape.H, shape.HV)));
  workspace->sync_counters.fill_bytes(0);
  workspace->floats = DeviceBuffer<float>(
      count(kernels::gdn_workspace_floats(batch, shape.H, shape.HV, shape.K, shape.V)));
  if (path_ == GdnPath::adapter_upstream) {
    workspace->interleaved_qkvz = DeviceBuffer<bf16_bits>(count(batch * shape.qkvz_elements()));
    workspace->interleaved_ba = DeviceBuffer<bf16_bits>(count(batch * shape.ba_elements()));
  }
  if (path_ == GdnPath::baseline) {
    workspace->conv_out = DeviceBuffer<float>(count(batch * shape.conv_channels()));
    workspace->g = DeviceBuffer<float>(count(batch * shape.HV));
    workspace->beta = DeviceBuffer<float>(count(batch * shape.HV));
    workspace->core_out = DeviceBuffer<bf16_bits>(count(batch * shape.HV * shape.V));
  }
  return workspace;
}

void GdnPathLauncher::enqueue(GdnDeviceLayer& layer, GdnPathWorkspace& workspace,
                              hipStream_t stream,
                              std::optional<kernels::LaunchOrder> launch_override) const {
  const GdnShape& shape = layer.shape();
  if (workspace.batch != layer.batch() || workspace.shape.H != shape.H ||
      workspace.shape.HV != shape.HV || workspace.shape.K != shape.K ||
      workspace.shape.V != shape.V)
    throw std::invalid_argument("GDN path: workspace made for another shape or batch");
  GdnDecodeArgs args = layer.args();
  args.sync_counters = workspace.sync_counters.data();
  args.sync_counter_count = static_cast<long long>(workspace.sync_counters.size());
  args.workspace = workspace.floats.data();
  args.workspace_floats = static_cast<long long>(workspace.floats.size());
  const kernels::StateSplit split = split_for(shape, layer.batch());
  const StateOrder order = options_.state_order;
  if (launch_override) require_launch_order(*launch_override);
  const kernels::LaunchOrder launch = launch_override.value_or(options_.launch);

  switch (path_) {
    case GdnPath::baseline: {
      kernels::BaselineBuffers buffers;
      buffers.conv_out = workspace.conv_out.data();
      buffers.g = workspace.g.data();
      buffers.beta = workspace.beta.data();
      buffers.o = workspace.core_out.data();
      kernels::launch_gdn_baseline_conv(args, buffers, stream, launch);
      kernels::launch_gdn_baseline_gating(args, buffers, stream, launch);
      kernels::launch_gdn_baseline_recurrent(order, args, buffers, split, stream, launch);
      kernels::launch_gdn_baseline_gated_rmsnorm(args, buffers, stream, launch);
      return;
    }
    case GdnPath::adapter_upstream: {
      kernels::launch_adapt_qkvz_flat_to_interleaved(
          args.qkvz, args.qkvz_row_stride, workspace.interleaved_qkvz.data(), shape.qkvz_elements(),
          args.batch, shape.H, shape.HV, shape.K, shape.V, stream, launch);
      kernels::launch_adapt_ba_flat_to_interleaved(
          args.ba, args.ba_row_stride, workspace.interleaved_ba.data(), shape.ba_elements(),
          args.batch, shape.H, shape.HV, stream, launch);
      args.qkvz = workspace.interleaved_qkvz.data();
      args.qkvz_row_stride = shape.qkvz_elements();
      args.ba = workspace.interleaved_ba.data();
      args.ba_row_stride = shape.ba_elements();
      kernels::launch_gdn_decode_fused(kernels::QkvzLayout::interleaved, order, args, split, stream,
                                       launch);
      return;
    }
    case GdnPath::native:
      kernels::launch_gdn_decode_fused(kernels::QkvzLayout::flat, order, args, split, stream,
                                       launch);
      return;
    case GdnPath::upstream_direct:
      kernels::launch_gdn_decode_fused(kernels::QkvzLayout::interleaved, order, args, split, stream,
                                       launch);
      return;
  }
}

}  // namespace layoutcheck::gpu
