// The parts of a Pangu-lite block that the native and the generic path share (the model gate
// compares the two paths, so everything but the layout kernels must be the same in both): a
// Linear's bias and GELU after the GEMM (gemm.h), and attention within each window. fp16 in and
// out, fp32 arithmetic. Every launch goes on the given stream and is checked.
#pragma once

#include <cstdint>

#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

// out[r][c] = fp16(act(out[r][c] + bias[c])), act the identity or GELU (erf form, as
// torch.nn.GELU's default), in place over rows x width.
void bias_activation(std::uint16_t* out, const std::uint16_t* bias, std::int64_t rows,
                     std::int64_t width, bool gelu, hipStream_t stream);

// Multi-head attention inside each window of window_tokens consecutive slots. qkv is
// [slots][3 * heads * head_dim]: q, then k, then v, each head's head_dim channels together, as
// one Linear computes them. out is [slots][heads * head_dim]: softmax(q kᵀ / sqrt(head_dim)) v
// per head, heads side by side. head_dim 32 (Pangu's at every level), windows of at most
// 160 tokens.
// @post throws std::invalid_argument for another head_dim or slots not whole windows.
void window_attention(const std::uint16_t* qkv, std::uint16_t* out, std::int64_t slots,
                      std::int64_t window_tokens, std::int64_t heads, std::int64_t head_dim,
                      hipStream_t stream);

}  // namespace layoutcheck::kernels
