// out = x · weightᵀ, torch.nn.Linear's product without its bias: x is [m][k], weight [n][k] (the
// Linear's own layout), out [m][n], all row-major fp16, accumulated in fp32. gemm_f16 is the
// vendor BLAS where the build has one (cuBLAS on NVIDIA) and the project's tiled kernel where it
// has none (Debian ships no rocBLAS for HIP); tiled_gemm_f16 is that kernel on either vendor, so
// it is tested against cuBLAS. Both are capturable in a graph; every launch is checked.
#pragma once

#include <cstdint>

#include "layoutcheck/platform/gpu_runtime.h"

namespace layoutcheck::kernels {

// "cuBLAS" or "tiled kernel": what gemm_f16 runs on this build.
const char* gemm_implementation();

// @post throws std::invalid_argument when a size is not positive.
void gemm_f16(const std::uint16_t* x, const std::uint16_t* weight, std::uint16_t* out,
              std::int64_t m, std::int64_t n, std::int64_t k, hipStream_t stream);
void tiled_gemm_f16(const std::uint16_t* x, const std::uint16_t* weight, std::uint16_t* out,
                    std::int64_t m, std::int64_t n, std::int64_t k, hipStream_t stream);

}  // namespace layoutcheck::kernels
