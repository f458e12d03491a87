// The CPU model of the Pangu-lite block stack (block_stack.h): every operator of both paths on
// the host, the layout ones through the same references the cases are held to (layer_norm.h, the
// contracts' maps and the framework plan), the GEMMs and attention in fp32 with fp16 results as
// the GPU kernels round them. The model gate runs it at small grids in CI; a native path built
// for a faulty window scheme (window_map.h) shows what the gate catches.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cases/pangu/block_stack.h"
#include "cases/pangu/window_map.h"

namespace layoutcheck::pangu {

class CpuBlockOps {
 public:
  struct Tensor {
    std::int64_t rows = 0, width = 0;
    std::vector<fp16_bits> values;
  };

  // native_fault: the window scheme the native path's maps follow instead of the contract's.
  explicit CpuBlockOps(const BlockStack& stack, WindowFault native_fault = WindowFault::none);

  Tensor layer_norm_gather(const Tensor& x, std::size_t block);
  Tensor gather(const Tensor& x, std::size_t block, bool reverse);
  std::pair<Tensor, Tensor> add_layer_norm(const Tensor& residual, const Tensor& branch);
  Tensor layer_norm(const Tensor& x);
  Tensor add(const Tensor& a, const Tensor& b);
  Tensor pad(const Tensor& x, std::size_t block);
  Tensor roll(const Tensor& x, std::size_t block, bool reverse);
  Tensor index_select(const Tensor& x, std::size_t block, bool reverse);
  Tensor crop(const Tensor& x, std::size_t block);
  Tensor linear(const Tensor& x, const HalfLinear& linear, bool gelu);
  Tensor attention(const Tensor& qkv, std::size_t block);

 private:
  const BlockStack& stack_;
  std::vector<std::vector<std::int32_t>> forward_, reverse_;  // per block, as the native path has them
};

// The stack's output (tokens x channels) along `path`.
std::vector<fp16_bits> run_cpu_block_stack(const BlockStack& stack, StackPath path,
                                           const std::vector<fp16_bits>& input,
                                           WindowFault native_fault = WindowFault::none);

}  // namespace layoutcheck::pangu
