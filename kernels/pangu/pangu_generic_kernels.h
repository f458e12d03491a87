// The generic path the Pangu kernels are measured against: what a framework runs for the same
// operators, one general kernel per framework operator, any width. LayerNorm one block per row;
// the residual add a separate elementwise kernel; the window partition as pad, roll and
// index_select, each a kernel over the whole padded grid. fp16 in and out, fp32 statistics. Not
// a fallback of the specialised kernels: the bench's baseline and the model gate's other path.
#pragma once

#include <cstdint>

#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

// out[r] = LayerNorm(x[r]) for rows of `width` fp16 (contiguous rows), one block per row.
void generic_layer_norm(const std::uint16_t* x, std::uint16_t* out, std::int64_t rows,
                        std::int64_t width, hipStream_t stream);

// out = fp16(a + b), elementwise.
void generic_add(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* out,
                 std::int64_t elements, hipStream_t stream);

// A grid of tokens, [z][lat][lon] of `width` fp16, and the same grid padded or rolled.
struct GridShape {
  std::int64_t z = 0, lat = 0, lon = 0, width = 0;
};

// out (the padded grid) = x with `before` zero tokens ahead of each axis and zeros after it up
// to `padded`'s extents (F.pad).
void generic_pad(const std::uint16_t* x, GridShape grid, std::uint16_t* out, GridShape padded,
                 const std::int64_t before[3], hipStream_t stream);

// out[p] = in[(p + shift) mod extent] along each axis (torch.roll by -shift).
void generic_roll(const std::uint16_t* in, std::uint16_t* out, GridShape grid,
                  const std::int64_t shift[3], hipStream_t stream);

// out (the real grid) = the tokens of x (the padded grid) from `before` on along each axis: the
// slice that drops the padding again (x[:, b0:b0+z, b1:b1+lat, b2:b2+lon].contiguous()).
void generic_crop(const std::uint16_t* x, GridShape padded, std::uint16_t* out, GridShape grid,
                  const std::int64_t before[3], hipStream_t stream);

// out token s = in token index[s] (index_select along the token axis; int64 as a framework's).
void generic_index_select(const std::uint16_t* in, const std::int64_t* index, std::uint16_t* out,
                          std::int64_t slots, std::int64_t width, hipStream_t stream);

}  // namespace layoutcheck::kernels
