#include "cases/pangu/gpu/block_stack_gpu.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "cases/pangu/gpu/device_walk.h"
#include "kernels/gemm.h"
#include "kernels/pangu/pangu_block_kernels.h"
#include "kernels/pangu/pangu_generic_kernels.h"
#include "kernels/pangu/pangu_kernels.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/gpu_bench/graph_timing.h"

namespace layoutcheck::gpu {
namespace {

using pangu::BlockStack;
using pangu::HalfLinear;
using pangu::PanguBlock;

// fp16 activations by exact size: a released buffer is the next of its size acquired, so the
// same sequence of operators gets the same buffers on every run.
class ActivationPool {
 public:
  int acquire(std::int64_t elements) {
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (!slots_[i].busy && slots_[i].elements == elements) return take(i);
    slots_.push_back({DeviceBuffer<std::uint16_t>(static_cast<std::size_t>(elements)), elements});
    held_bytes_ += elements * 2;
    return take(slots_.size() - 1);
  }
  void release(int slot) {
    slots_[static_cast<std::size_t>(slot)].busy = false;
    live_bytes_ -= slots_[static_cast<std::size_t>(slot)].elements * 2;
  }
  std::uint16_t* data(int slot) { return slots_[static_cast<std::size_t>(slot)].buffer.data(); }
  std::int64_t held_bytes() const { return held_bytes_; }
  std::int64_t peak_live_bytes() const { return peak_live_bytes_; }

 private:
  struct Slot {
    DeviceBuffer<std::uint16_t> buffer;
    std::int64_t elements = 0;
    bool busy = false;
  };
  int take(std::size_t i) {
    slots_[i].busy = true;
    live_bytes_ += slots_[i].elements * 2;
    peak_live_bytes_ = std::max(peak_live_bytes_, live_bytes_);
    return static_cast<int>(i);
  }
  std::vector<Slot> slots_;
  std::int64_t held_bytes_ = 0, live_bytes_ = 0, peak_live_bytes_ = 0;
};

struct DeviceLinear {
  DeviceBuffer<std::uint16_t> weight, bias;
};

struct DeviceBlock {
  DeviceBuffer<GatherStep> forward, reverse;  // the native path's walks of its maps
  DeviceBuffer<std::int64_t> index, unindex;  // the generic path's index_select
};

class GpuBlockOps {
 public:
  // A pool buffer (released when the tensor dies) or, for the stack's input, one outside it.
  class Tensor {
   public:
    Tensor(ActivationPool* pool, int slot, std::int64_t rows, std::int64_t width)
        : pool_(pool), slot_(slot), rows_(rows), width_(width), data_(pool->data(slot)) {}
    Tensor(std::uint16_t* fixed, std::int64_t rows, std::int64_t width)
        : rows_(rows), width_(width), data_(fixed) {}
    Tensor(Tensor&& other) noexcept { *this = std::move(other); }
    Tensor& operator=(Tensor&& other) noexcept {
      if (this != &other) {
        drop();
        pool_ = std::exchange(other.pool_, nullptr);
        slot_ = other.slot_;
        rows_ = other.rows_;
        width_ = other.width_;
        data_ = other.data_;
      }
      return *this;
    }
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;
    ~Tensor() { drop(); }
    std::uint16_t* data() const { return data_; }
    std::int64_t rows() const { return rows_; }
    std::int64_t width() const { return width_; }
    std::int64_t elements() const { return rows_ * width_; }

   private:
    void drop() {
      if (pool_ != nullptr) pool_->release(slot_);
      pool_ = nullptr;
    }
    ActivationPool* pool_ = nullptr;
    int slot_ = 0;
    std::int64_t rows_ = 0, width_ = 0;
    std::uint16_t* data_ = nullptr;
  };

  GpuBlockOps(const BlockStack& stack, hipStream_t stream) : stack_(stack), stream_(stream) {
    for (const PanguBlock& block : stack.blocks) {
      DeviceBlock device;
      device.forward = upload_walk(block.forward.slots, stack.channels);
      device.reverse = upload_walk(block.reverse, stack.channels);
      device.index = DeviceBuffer<std::int64_t>(std::span<const std::int64_t>(block.plan.index));
      device.unindex = DeviceBuffer<std::int64_t>(std::span<const std::int64_t>(block.unindex));
      blocks_.push_back(std::move(device));
      for (const HalfLinear* linear : {&block.qkv, &block.proj, &block.mlp_in, &block.mlp_out}) {
        DeviceLinear& d = linears_[linear];
        d.weight = DeviceBuffer<std::uint16_t>(std::span<const std::uint16_t>(linear->weight));
        d.bias = DeviceBuffer<std::uint16_t>(std::span<const std::uint16_t>(linear->bias));
        weight_bytes_ += static_cast<std::int64_t>(d.weight.bytes() + d.bias.bytes());
      }
    }
  }

  Tensor layer_norm_gather(const Tensor& x, std::size_t block) {
    Tensor out = make(slots(block), x.width());
    kernels::pangu_layer_norm_gather(x.data(), blocks_[block].forward.data(), out.data(),
                                     out.rows(), x.width(), counted());
    return out;
  }
  Tensor gather(const Tensor& x, std::size_t block, bool reverse) {
    Tensor out = make(reverse ? stack_.tokens : slots(block), x.width());
    const DeviceBlock& d = blocks_[block];
    kernels::pangu_gather(x.data(), (reverse ? d.reverse : d.forward).data(), out.data(),
                          out.rows(), x.width(), counted());
    return out;
  }
  std::pair<Tensor, Tensor> add_layer_norm(const Tensor& residual, const Tensor& branch) {
    Tensor sum = make(residual.rows(), residual.width());
    Tensor out = make(residual.rows(), residual.width());
    kernels::pangu_add_layer_norm(residual.data(), branch.data(), sum.data(), out.data(),
                                  residual.rows(), residual.width(), counted());
    return {std::move(sum), std::move(out)};
  }
  Tensor layer_norm(const Tensor& x) {
    Tensor out = make(x.rows(), x.width());
    kernels::generic_layer_norm(x.data(), out.data(), x.rows(), x.width(), counted());
    return out;
  }
  Tensor add(const Tensor& a, const Tensor& b) {
    Tensor out = make(a.rows(), a.width());
    kernels::generic_add(a.data(), b.data(), out.data(), a.elements(), counted());
    return out;
  }
  Tensor pad(const Tensor& x, std::size_t block) {
    const pangu::FrameworkWindowPlan& plan = stack_.blocks[block].plan;
    Tensor out = make(plan.padded[0] * plan.padded[1] * plan.padded[2], x.width());
    kernels::generic_pad(x.data(), shape(plan.grid, x.width()), out.data(),
                         shape(plan.padded, x.width()), plan.before.data(), counted());
    return out;
  }
  Tensor roll(const Tensor& x, std::size_t block, bool reverse) {
    const pangu::FrameworkWindowPlan& plan = stack_.blocks[block].plan;
    const std::int64_t sign = reverse ? -1 : 1;
    const std::int64_t shift[3] = {sign * plan.shift[0], sign * plan.shift[1],
                                   sign * plan.shift[2]};
    Tensor out = make(x.rows(), x.width());
    kernels::generic_roll(x.data(), out.data(), shape(plan.padded, x.width()), shift, counted());
    return out;
  }
  Tensor index_select(const Tensor& x, std::size_t block, bool reverse) {
    const DeviceBlock& d = blocks_[block];
    Tensor out = make(x.rows(), x.width());  // the padded grid and its windows: the same count
    kernels::generic_index_select(x.data(), (reverse ? d.unindex : d.index).data(), out.data(),
                                  out.rows(), x.width(), counted());
    return out;
  }
  Tensor crop(const Tensor& x, std::size_t block) {
    const pangu::FrameworkWindowPlan& plan = stack_.blocks[block].plan;
    Tensor out = make(stack_.tokens, x.width());
    kernels::generic_crop(x.data(), shape(plan.padded, x.width()), out.data(),
                          shape(plan.grid, x.width()), plan.before.data(), counted());
    return out;
  }
  Tensor linear(const Tensor& x, const HalfLinear& linear, bool gelu) {
    const DeviceLinear& d = linears_.at(&linear);
    Tensor out = make(x.rows(), linear.out);
    kernels::gemm_f16(x.data(), d.weight.data(), out.data(), x.rows(), linear.out, linear.in,
                      counted());
    kernels::bias_activation(out.data(), d.bias.data(), x.rows(), linear.out, gelu, counted());
    return out;
  }
  Tensor attention(const Tensor& qkv, std::size_t block) {
    Tensor out = make(qkv.rows(), stack_.channels);
    kernels::window_attention(qkv.data(), out.data(), qkv.rows(),
                              stack_.blocks[block].window_tokens, stack_.heads, stack_.head_dim(),
                              counted());
    return out;
  }

  Tensor input(const DeviceBuffer<std::uint16_t>& x) {
    return Tensor(const_cast<std::uint16_t*>(x.data()), stack_.tokens, stack_.channels);
  }
  ActivationPool& pool() { return pool_; }
  std::int64_t launches() const { return launches_; }
  std::int64_t weight_bytes() const { return weight_bytes_; }
  std::int64_t index_bytes(pangu::StackPath path) const {
    std::int64_t bytes = 0;
    for (const DeviceBlock& d : blocks_)
      bytes += static_cast<std::int64_t>(path == pangu::StackPath::native
                                             ? d.forward.bytes() + d.reverse.bytes()
                                             : d.index.bytes() + d.unindex.bytes());
    return bytes;
  }

 private:
  Tensor make(std::int64_t rows, std::int64_t width) {
    return Tensor(&pool_, pool_.acquire(rows * width), rows, width);
  }
  std::int64_t slots(std::size_t block) const {
    return static_cast<std::int64_t>(stack_.blocks[block].forward.slots.size());
  }
  static kernels::GridShape shape(const std::array<std::int64_t, 3>& grid, std::int64_t width) {
    return {grid[0], grid[1], grid[2], width};
  }
  hipStream_t counted() {
    ++launches_;
    return stream_;
  }

  const BlockStack& stack_;
  hipStream_t stream_;
  ActivationPool pool_;
  std::vector<DeviceBlock> blocks_;
  std::map<const HalfLinear*, DeviceLinear> linears_;
  std::int64_t weight_bytes_ = 0, launches_ = 0;
};

}  // namespace

std::vector<fp16_bits> run_gpu_block_stack(const BlockStack& stack, pangu::StackPath path,
                                           const std::vector<fp16_bits>& input,
                                           const Stream& stream) {
  GpuBlockOps ops(stack, stream.get());
  const DeviceBuffer<std::uint16_t> x{std::span<const std::uint16_t>(input)};
  const GpuBlockOps::Tensor out = pangu::run_block_stack(ops, stack, path, ops.input(x));
  stream.synchronize();
  std::vector<fp16_bits> host(static_cast<std::size_t>(out.elements()));
  LC_GPU_CHECK(hipMemcpy(host.data(), out.data(), host.size() * 2, hipMemcpyDeviceToHost));
  return host;
}

std::vector<fp16_bits> run_gpu_block_stack(const BlockStack& stack, pangu::StackPath path,
                                           const std::vector<fp16_bits>& input) {
  const Stream stream;
  return run_gpu_block_stack(stack, path, input, stream);
}

namespace {

std::int64_t free_device_bytes(const Stream& stream) {
  stream.synchronize();
  std::size_t free = 0, total = 0;
  LC_GPU_CHECK(hipMemGetInfo(&free, &total));
  return static_cast<std::int64_t>(free);
}

}  // namespace

StackRun time_gpu_block_stack(const BlockStack& stack, pangu::StackPath path,
                              const std::vector<fp16_bits>& input, const Stream& stream,
                              int warmup, int replays) {
  const std::int64_t free_before = free_device_bytes(stream);
  GpuBlockOps ops(stack, stream.get());
  const DeviceBuffer<std::uint16_t> x{std::span<const std::uint16_t>(input)};
  StackRun run;
  const auto download = [&](const GpuBlockOps::Tensor& out) {
    std::vector<fp16_bits> host(static_cast<std::size_t>(out.elements()));
    LC_GPU_CHECK(hipMemcpyAsync(host.data(), out.data(), host.size() * 2, hipMemcpyDeviceToHost,
                                stream.get()));
    stream.synchronize();
    return host;
  };
  {
    const GpuBlockOps::Tensor out = pangu::run_block_stack(ops, stack, path, ops.input(x));
    run.output = download(out);
  }
  run.launches = ops.launches();
  const std::int64_t held = ops.pool().held_bytes();
  std::unique_ptr<GpuBlockOps::Tensor> captured_out;
  const Graph graph(stream, [&](hipStream_t) {
    captured_out = std::make_unique<GpuBlockOps::Tensor>(
        pangu::run_block_stack(ops, stack, path, ops.input(x)));
  });
  if (ops.pool().held_bytes() != held)
    throw GpuError("the captured block stack allocated memory the first run did not");
  run.us = time_graph_replays(graph, stream, warmup, replays, 1.0);
  run.replayed = download(*captured_out);
  run.activation_bytes = ops.pool().held_bytes();
  run.index_bytes = ops.index_bytes(path);
  run.weight_bytes = ops.weight_bytes();
  run.device_bytes = std::max<std::int64_t>(free_before - free_device_bytes(stream), 0);
  return run;
}

}  // namespace layoutcheck::gpu
