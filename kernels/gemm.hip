// The GEMM of gemm.h. The tiled kernel: a block computes a 64 x 64 tile of out from 16-wide
// slices of x and weight staged in shared memory as fp32, each thread a 4 x 4 piece of the tile;
// edges are guarded, so any m, n, k works. Nothing here depends on the wave size.
#include <map>
#include <stdexcept>
#include <string>

#include "gemm.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/platform/fp16.h"
#if defined(LC_GPU_VENDOR_NVIDIA)
#include <cublas_v2.h>
#endif

namespace layoutcheck::kernels {
namespace {

constexpr int kTile = 64;
constexpr int kSlice = 16;
constexpr int kThreads = 256;  // 16 x 16 threads, each 4 x 4 outputs

__global__ void __launch_bounds__(kThreads)
    tiled_gemm_kernel(const unsigned short* x, const unsigned short* weight, unsigned short* out,
                      long long m, long long n, long long k) {
  __shared__ float xs[kSlice][kTile + 1];
  __shared__ float ws[kSlice][kTile + 1];
  const long long row0 = static_cast<long long>(blockIdx.y) * kTile;
  const long long col0 = static_cast<long long>(blockIdx.x) * kTile;
  const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
  float acc[4][4] = {};
  for (long long k0 = 0; k0 < k; k0 += kSlice) {
    // 64 rows x 16 of each operand: 1024 values, 4 per thread.
    for (int i = static_cast<int>(threadIdx.x); i < kTile * kSlice; i += kThreads) {
      const int r = i / kSlice, c = i % kSlice;
      const long long kk = k0 + c;
      xs[c][r] = row0 + r < m && kk < k ? fp16_to_float(x[(row0 + r) * k + kk]) : 0.0f;
      ws[c][r] = col0 + r < n && kk < k ? fp16_to_float(weight[(col0 + r) * k + kk]) : 0.0f;
    }
    __syncthreads();
    for (int c = 0; c < kSlice; ++c) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = xs[c][ty * 4 + i];
      for (int j = 0; j < 4; ++j) b[j] = ws[c][tx * 4 + j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const long long r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < m && c < n) out[r * n + c] = float_to_fp16(acc[i][j]);
    }
}

void require_sizes(std::int64_t m, std::int64_t n, std::int64_t k) {
  if (m <= 0 || n <= 0 || k <= 0)
    throw std::invalid_argument("gemm: sizes must be positive (m " + std::to_string(m) + ", n " +
                                std::to_string(n) + ", k " + std::to_string(k) + ")");
}

#if defined(LC_GPU_VENDOR_NVIDIA)
// One handle per host thread, and a workspace of its own for each stream it runs on (as cuBLAS's
// default pool is), so GEMMs on two streams never share one. cublasSetStream drops the workspace
// set before it, so both are set before every GEMM; without that cuBLAS falls back to its default
// pool, which it allocates at a stream's first GEMM. A stream's workspace is made (and the handle
// at the thread's first) outside a graph capture, so nothing is allocated while capturing.
class CublasHandle {
 public:
  CublasHandle() = default;
  ~CublasHandle() {
    if (handle_ != nullptr) cublasDestroy(handle_);
    for (const auto& [stream, workspace] : workspaces_) (void)hipFree(workspace);
  }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  cublasHandle_t on(hipStream_t stream) {
    void*& workspace = workspaces_[stream];
    if (workspace == nullptr) {
      cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
      LC_GPU_CHECK(cudaStreamIsCapturing(stream, &capture));
      if (capture != cudaStreamCaptureStatusNone) {
        workspaces_.erase(stream);
        throw gpu::GpuError(
            "gemm_f16: first GEMM on a stream inside a graph capture; run it once on that stream "
            "before capturing, so that its cuBLAS workspace exists");
      }
      if (handle_ == nullptr) check(cublasCreate(&handle_), "cublasCreate");
      LC_GPU_CHECK(hipMalloc(&workspace, kWorkspaceBytes));
    }
    check(cublasSetStream(handle_, stream), "cublasSetStream");
    check(cublasSetWorkspace(handle_, workspace, kWorkspaceBytes), "cublasSetWorkspace");
    return handle_;
  }
  static void check(cublasStatus_t status, const char* call) {
    if (status != CUBLAS_STATUS_SUCCESS)
      throw gpu::GpuError(std::string(call) + " failed: " + cublasGetStatusString(status));
  }

 private:
  static constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;
  cublasHandle_t handle_ = nullptr;
  std::map<hipStream_t, void*> workspaces_;
};
#endif

}  // namespace

const char* gemm_implementation() {
#if defined(LC_GPU_VENDOR_NVIDIA)
  return "cuBLAS";
#else
  return "tiled kernel";
#endif
}

void tiled_gemm_f16(const std::uint16_t* x, const std::uint16_t* weight, std::uint16_t* out,
                    std::int64_t m, std::int64_t n, std::int64_t k, hipStream_t stream) {
  require_sizes(m, n, k);
  if ((m + kTile - 1) / kTile > 65535)
    throw std::invalid_argument("tiled_gemm_f16: more than 65535 tiles of rows");
  const dim3 grid(static_cast<unsigned>((n + kTile - 1) / kTile),
                  static_cast<unsigned>((m + kTile - 1) / kTile));
  tiled_gemm_kernel<<<grid, kThreads, 0, stream>>>(x, weight, out, m, n, k);
  LC_GPU_CHECK_LAUNCH("tiled_gemm_f16");
}

void gemm_f16(const std::uint16_t* x, const std::uint16_t* weight, std::uint16_t* out,
              std::int64_t m, std::int64_t n, std::int64_t k, hipStream_t stream) {
#if defined(LC_GPU_VENDOR_NVIDIA)
  require_sizes(m, n, k);
  thread_local CublasHandle blas;
  const cublasHandle_t handle = blas.on(stream);
  const float one = 1.0f, zero = 0.0f;
  // Row-major out = x · wᵀ is column-major outᵀ (n x m) = w (n x k, stored k-major) · xᵀ.
  CublasHandle::check(
      cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(n),
                   static_cast<int>(m), static_cast<int>(k), &one, weight, CUDA_R_16F,
                   static_cast<int>(k), x, CUDA_R_16F, static_cast<int>(k), &zero, out,
                   CUDA_R_16F, static_cast<int>(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
      "cublasGemmEx");
#else
  tiled_gemm_f16(x, weight, out, m, n, k, stream);
#endif
}

}  // namespace layoutcheck::kernels
