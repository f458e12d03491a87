// Pangu-lite: a stack of pre-norm window-attention blocks over the real token grid, with random
// weights, run along two paths that differ only in their layout kernels, so the model gate
// (model_gate.h) shows what the specialised kernels are worth end to end and that they change
// nothing but speed:
//
//   block b (its windows contract: unshifted for even b, shifted for odd b, as Pangu alternates)
//     windows  = native:  LayerNorm fused with the gather by the int32 map
//                generic: LayerNorm, then pad, roll and index_select (int64), as a framework
//     attended = Linear(proj, attention(Linear(qkv, windows)))        the same in both paths
//     back     = native:  the gather by the reverse map (crop + un-shift)
//                generic: index_select back, roll back, crop
//     residual, normed = native:  residual add + LayerNorm, one kernel, keeping the rounding point
//                        generic: add, then LayerNorm
//     x        = residual + Linear(mlp_out, GELU(Linear(mlp_in, normed)))   the same in both
//
// run_block_stack writes the stack once for any Ops (the CPU model, block_stack_cpu.h; the GPU,
// cases/pangu/gpu/block_stack_gpu.h). An Ops has a movable Tensor (rows x width fp16) and:
//   Tensor layer_norm_gather(const Tensor&, block)  gather(const Tensor&, block, reverse)
//   std::pair<Tensor, Tensor> add_layer_norm(const Tensor& residual, const Tensor& branch)
//   Tensor layer_norm(const Tensor&)  add(const Tensor&, const Tensor&)
//   Tensor pad(const Tensor&, block)  roll(const Tensor&, block, reverse)
//   Tensor index_select(const Tensor&, block, reverse)  crop(const Tensor&, block)
//   Tensor linear(const Tensor&, const HalfLinear&, bool gelu)  attention(const Tensor&, block)
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cases/pangu/framework_window.h"
#include "layoutcheck/contract/contract.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/platform/fp16.h"

namespace layoutcheck::pangu {

// torch.nn.Linear in fp16: weight [out][in], bias [out].
struct HalfLinear {
  std::int64_t in = 0, out = 0;
  std::vector<fp16_bits> weight, bias;
};

struct PanguBlock {
  Contract windows;
  GatherMap forward;                    // the native path's map
  std::vector<std::int32_t> reverse;    // crop + un-shift, per grid token
  FrameworkWindowPlan plan;             // the generic path's pad, roll and index_select
  std::vector<std::int64_t> unindex;    // index_select back: per padded token, its slot
  std::int64_t window_tokens = 0;
  HalfLinear qkv, proj, mlp_in, mlp_out;
};

struct BlockStack {
  std::int64_t tokens = 0, channels = 0, heads = 0;
  std::vector<PanguBlock> blocks;
  std::int64_t head_dim() const { return channels / heads; }
};

enum class StackPath { native, generic };
std::string path_name(StackPath path);

// The windows contracts of `blocks` blocks over a grid of z x lat x lon tokens of `channels`:
// contracts/pangu/windows.yaml for even blocks, windows.shifted.yaml for odd ones.
// @post throws InputError when a contract cannot be read or checked at that grid.
std::vector<Contract> alternating_windows(const std::string& contracts_folder, std::int64_t z,
                                          std::int64_t lat, std::int64_t lon,
                                          std::int64_t channels, std::int64_t blocks);

// One block per windows contract (each a Pangu windows contract of the same grid and width),
// weights uniform in ±1/sqrt(in) from `seed`, an MLP four times as wide as the tokens.
// @post throws InputError (rule "case-layout") when the contracts disagree on the grid or the
//       width, or heads does not divide the width.
BlockStack make_block_stack(const std::vector<Contract>& windows, std::int64_t heads,
                            std::uint64_t seed);

// The stack's input: tokens x channels uniform in [-range, range), seeded.
std::vector<fp16_bits> stack_input(const BlockStack& stack, std::uint64_t seed, double range = 1.0);

// A framework skips the pad of a grid that needs none and the roll of an unshifted block.
bool needs_padding(const PanguBlock& block);
bool is_shifted(const PanguBlock& block);

template <class Ops>
typename Ops::Tensor run_block_stack(Ops& ops, const BlockStack& stack, StackPath path,
                                     typename Ops::Tensor x) {
  using Tensor = typename Ops::Tensor;
  const bool native = path == StackPath::native;
  for (std::size_t b = 0; b < stack.blocks.size(); ++b) {
    const PanguBlock& block = stack.blocks[b];
    // Each step's temporaries die with the lambda, as a framework's do with their last use.
    const auto partition = [&] {
      if (native) return ops.layer_norm_gather(x, b);
      Tensor grid = ops.layer_norm(x);
      if (needs_padding(block)) grid = ops.pad(grid, b);
      if (is_shifted(block)) grid = ops.roll(grid, b, false);
      return ops.index_select(grid, b, false);
    };
    const auto attend = [&] {
      Tensor windows = partition();
      Tensor qkv = ops.linear(windows, block.qkv, false);
      return ops.linear(ops.attention(qkv, b), block.proj, false);
    };
    const auto merge = [&] {
      Tensor attended = attend();
      if (native) return ops.gather(attended, b, true);
      Tensor grid = ops.index_select(attended, b, true);
      if (is_shifted(block)) grid = ops.roll(grid, b, true);
      return needs_padding(block) ? ops.crop(grid, b) : std::move(grid);
    };
    const auto residual_and_normed = [&] {
      Tensor back = merge();
      if (native) return ops.add_layer_norm(x, back);
      Tensor residual = ops.add(x, back);
      Tensor normed = ops.layer_norm(residual);
      return std::pair<Tensor, Tensor>(std::move(residual), std::move(normed));
    };
    std::pair<Tensor, Tensor> residual = residual_and_normed();
    const auto mlp = [&] {
      Tensor hidden = ops.linear(residual.second, block.mlp_in, true);
      return ops.linear(hidden, block.mlp_out, false);
    };
    x = ops.add(residual.first, mlp());
  }
  return x;
}

}  // namespace layoutcheck::pangu
