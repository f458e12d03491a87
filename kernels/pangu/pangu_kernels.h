// Host entry points of Pangu-Weather's specialised kernels (kernels/pangu/DESIGN.md): LayerNorm
// without affine, residual add + LayerNorm keeping the fp16 rounding point, the window gather by
// an int32 index map, walked in the order gather_walk.h gives (its reverse is the same gather by
// the reverse map), and LayerNorm fused with the gather. fp16 in and out, fp32 statistics, a row
// held in registers (pangu_kernels.hip says how rows map to lanes). The LayerNorms take widths
// 192, 384 and 768 only: any other is an error before anything is launched, never a generic
// fallback. The gathers, which do no arithmetic, move any whole number of 16-byte pieces. A tensor
// pointer off 16-byte alignment is an error too (std::invalid_argument). Every
// launch goes on the given stream and is checked. Launched overlapped (launch_order.h; the caller
// refuses it where the device cannot), a kernel reads nothing before the previous kernel ends but
// the walk, which no kernel may write while these run, and prefetches into L2.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/launch_order.h"
#include "layoutcheck/contract/gather_walk.h"
#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

// The widths the LayerNorm kernels are built for.
bool pangu_width_supported(std::int64_t width);
// @post throws std::invalid_argument naming the width and the supported ones when unsupported.
void require_pangu_width(std::int64_t width);

// out[r] = LayerNorm(x[r]) for rows of `width` fp16, row r at r * width (contiguous rows).
void pangu_layer_norm(const std::uint16_t* x, std::uint16_t* out, std::int64_t rows,
                      std::int64_t width, hipStream_t stream,
                      LaunchOrder order = LaunchOrder::serial);

// residual_out[r] = fp16(residual[r] + branch[r]); out[r] = LayerNorm(residual_out[r]).
void pangu_add_layer_norm(const std::uint16_t* residual, const std::uint16_t* branch,
                          std::uint16_t* residual_out, std::uint16_t* out, std::int64_t rows,
                          std::int64_t width, hipStream_t stream,
                          LaunchOrder order = LaunchOrder::serial);

// The order the gathers walk a map in at this width: by token where a token is wider than 32
// pieces (measured faster at 384 and 768 channels), by slot up to 32 pieces (measured faster at
// 192; kernels/pangu/DESIGN.md).
WalkOrder pangu_walk_order(std::int64_t width);

// The gathers follow a walk of the map (gather_walk.h; pangu_walk_order gives the order, any order
// is correct): step s writes slot walk[s].slot of `out` (width elements) with token walk[s].token
// of x, or zeros where it is -1. width % 8 == 0: tokens move in 16-byte pieces (8 fp16).
void pangu_gather(const std::uint16_t* x, const GatherStep* walk, std::uint16_t* out,
                  std::int64_t steps, std::int64_t width, hipStream_t stream,
                  LaunchOrder order = LaunchOrder::serial);

// The same with each token normalised: the normalised tensor is never written whole. Widths 192,
// 384 and 768.
void pangu_layer_norm_gather(const std::uint16_t* x, const GatherStep* walk, std::uint16_t* out,
                             std::int64_t steps, std::int64_t width, hipStream_t stream,
                             LaunchOrder order = LaunchOrder::serial);

}  // namespace layoutcheck::kernels
