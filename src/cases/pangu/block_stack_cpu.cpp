#include "cases/pangu/block_stack_cpu.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "cases/pangu/layer_norm.h"

namespace layoutcheck::pangu {
namespace {

using Tensor = CpuBlockOps::Tensor;

Tensor zeros(std::int64_t rows, std::int64_t width) {
  return {rows, width, std::vector<fp16_bits>(static_cast<std::size_t>(rows * width), 0)};
}

std::span<const fp16_bits> row(const Tensor& t, std::int64_t r) {
  return std::span(t.values).subspan(static_cast<std::size_t>(r * t.width),
                                     static_cast<std::size_t>(t.width));
}
std::span<fp16_bits> row(Tensor& t, std::int64_t r) {
  return std::span(t.values).subspan(static_cast<std::size_t>(r * t.width),
                                     static_cast<std::size_t>(t.width));
}

// Slot s of the result = row map[s] of x, or zeros where map[s] < 0.
Tensor move_rows(const Tensor& x, const std::vector<std::int32_t>& map) {
  Tensor out = zeros(static_cast<std::int64_t>(map.size()), x.width);
  for (std::size_t s = 0; s < map.size(); ++s)
    if (map[s] >= 0) std::ranges::copy(row(x, map[s]), row(out, static_cast<std::int64_t>(s)).begin());
  return out;
}

// The token of `grid` at `position`, or -1 outside it.
std::int64_t token_at(const std::array<std::int64_t, 3>& grid, const std::int64_t position[3]) {
  std::int64_t token = 0;
  for (std::size_t axis = 0; axis < 3; ++axis) {
    if (position[axis] < 0 || position[axis] >= grid[axis]) return -1;
    token = token * grid[axis] + position[axis];
  }
  return token;
}

// Per token of `to` (extents `to_grid`), the token of `from_grid` it takes: position + offset,
// each axis wrapped when `wrap`.
std::vector<std::int32_t> grid_map(const std::array<std::int64_t, 3>& to_grid,
                                   const std::array<std::int64_t, 3>& from_grid,
                                   const std::array<std::int64_t, 3>& offset, bool wrap) {
  std::vector<std::int32_t> map;
  map.reserve(static_cast<std::size_t>(to_grid[0] * to_grid[1] * to_grid[2]));
  for (std::int64_t z = 0; z < to_grid[0]; ++z)
    for (std::int64_t lat = 0; lat < to_grid[1]; ++lat)
      for (std::int64_t lon = 0; lon < to_grid[2]; ++lon) {
        std::int64_t position[3] = {z + offset[0], lat + offset[1], lon + offset[2]};
        if (wrap)
          for (std::size_t axis = 0; axis < 3; ++axis)
            position[axis] = ((position[axis] % from_grid[axis]) + from_grid[axis]) % from_grid[axis];
        map.push_back(static_cast<std::int32_t>(token_at(from_grid, position)));
      }
  return map;
}

float gelu(float v) { return 0.5f * v * (1.0f + std::erf(v * 0.70710678118654752f)); }

}  // namespace

CpuBlockOps::CpuBlockOps(const BlockStack& stack, WindowFault native_fault) : stack_(stack) {
  for (const PanguBlock& block : stack.blocks) {
    const GatherMap map = make_gather_map(windows_as_built(block.windows, native_fault));
    forward_.push_back(map.slots);
    reverse_.push_back(reverse_map(map));
  }
}

Tensor CpuBlockOps::layer_norm_gather(const Tensor& x, std::size_t block) {
  return move_rows(layer_norm(x), forward_.at(block));
}

Tensor CpuBlockOps::gather(const Tensor& x, std::size_t block, bool reverse) {
  return move_rows(x, reverse ? reverse_.at(block) : forward_.at(block));
}

std::pair<Tensor, Tensor> CpuBlockOps::add_layer_norm(const Tensor& residual,
                                                      const Tensor& branch) {
  Tensor sum = zeros(residual.rows, residual.width), out = zeros(residual.rows, residual.width);
  for (std::int64_t r = 0; r < residual.rows; ++r)
    add_layer_norm_row(row(residual, r), row(branch, r), row(sum, r), row(out, r));
  return {std::move(sum), std::move(out)};
}

Tensor CpuBlockOps::layer_norm(const Tensor& x) {
  Tensor out = zeros(x.rows, x.width);
  for (std::int64_t r = 0; r < x.rows; ++r) layer_norm_row(row(x, r), row(out, r));
  return out;
}

Tensor CpuBlockOps::add(const Tensor& a, const Tensor& b) {
  Tensor out = zeros(a.rows, a.width);
  for (std::size_t i = 0; i < a.values.size(); ++i)
    out.values[i] = float_to_fp16(fp16_to_float(a.values[i]) + fp16_to_float(b.values[i]));
  return out;
}

Tensor CpuBlockOps::pad(const Tensor& x, std::size_t block) {
  const FrameworkWindowPlan& plan = stack_.blocks.at(block).plan;
  const std::array<std::int64_t, 3> back = {-plan.before[0], -plan.before[1], -plan.before[2]};
  return move_rows(x, grid_map(plan.padded, plan.grid, back, false));
}

Tensor CpuBlockOps::roll(const Tensor& x, std::size_t block, bool reverse) {
  const FrameworkWindowPlan& plan = stack_.blocks.at(block).plan;
  const std::int64_t sign = reverse ? -1 : 1;
  return move_rows(x, grid_map(plan.padded, plan.padded,
                               {sign * plan.shift[0], sign * plan.shift[1], sign * plan.shift[2]},
                               true));
}

Tensor CpuBlockOps::index_select(const Tensor& x, std::size_t block, bool reverse) {
  const PanguBlock& b = stack_.blocks.at(block);
  const std::vector<std::int64_t>& index = reverse ? b.unindex : b.plan.index;
  return move_rows(x, std::vector<std::int32_t>(index.begin(), index.end()));
}

Tensor CpuBlockOps::crop(const Tensor& x, std::size_t block) {
  const FrameworkWindowPlan& plan = stack_.blocks.at(block).plan;
  return move_rows(x, grid_map(plan.grid, plan.padded, plan.before, false));
}

Tensor CpuBlockOps::linear(const Tensor& x, const HalfLinear& linear, bool gelu_after) {
  std::vector<float> weight(linear.weight.size());
  std::ranges::transform(linear.weight, weight.begin(), fp16_to_float);
  Tensor out = zeros(x.rows, linear.out);
  std::vector<float> input(static_cast<std::size_t>(linear.in));
  for (std::int64_t r = 0; r < x.rows; ++r) {
    std::ranges::transform(row(x, r), input.begin(), fp16_to_float);
    for (std::int64_t o = 0; o < linear.out; ++o) {
      const float* w = weight.data() + o * linear.in;
      float acc = 0.0f;
      for (std::int64_t k = 0; k < linear.in; ++k) acc += input[static_cast<std::size_t>(k)] * w[k];
      // As on the GPU: the GEMM's fp16 result, then the bias (and GELU) rounded again.
      float v = fp16_to_float(float_to_fp16(acc)) +
                fp16_to_float(linear.bias[static_cast<std::size_t>(o)]);
      if (gelu_after) v = gelu(v);
      out.values[static_cast<std::size_t>(r * linear.out + o)] = float_to_fp16(v);
    }
  }
  return out;
}

Tensor CpuBlockOps::attention(const Tensor& qkv, std::size_t block) {
  const std::int64_t window = stack_.blocks.at(block).window_tokens;
  const std::int64_t c = stack_.channels, d = stack_.head_dim();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  Tensor out = zeros(qkv.rows, c);
  std::vector<float> scores(static_cast<std::size_t>(window));
  for (std::int64_t w0 = 0; w0 < qkv.rows; w0 += window)
    for (std::int64_t h = 0; h < stack_.heads; ++h)
      for (std::int64_t t = w0; t < w0 + window; ++t) {
        const auto at = [&](std::int64_t token, std::int64_t part, std::int64_t i) {
          return fp16_to_float(qkv.values[static_cast<std::size_t>(token * 3 * c + part * c +
                                                                    h * d + i)]);
        };
        float top = -INFINITY;
        for (std::int64_t j = 0; j < window; ++j) {
          float score = 0.0f;
          for (std::int64_t i = 0; i < d; ++i) score += at(t, 0, i) * scale * at(w0 + j, 1, i);
          scores[static_cast<std::size_t>(j)] = score;
          top = std::max(top, score);
        }
        float total = 0.0f;
        for (float& score : scores) total += (score = std::exp(score - top));
        for (std::int64_t i = 0; i < d; ++i) {
          float acc = 0.0f;
          for (std::int64_t j = 0; j < window; ++j)
            acc += scores[static_cast<std::size_t>(j)] * at(w0 + j, 2, i);
          out.values[static_cast<std::size_t>(t * c + h * d + i)] = float_to_fp16(acc / total);
        }
      }
  return out;
}

std::vector<fp16_bits> run_cpu_block_stack(const BlockStack& stack, StackPath path,
                                           const std::vector<fp16_bits>& input,
                                           WindowFault native_fault) {
  CpuBlockOps ops(stack, native_fault);
  return run_block_stack(ops, stack, path, CpuBlockOps::Tensor{stack.tokens, stack.channels, input})
      .values;
}

}  // namespace layoutcheck::pangu
