// The Pangu-lite block stack on the GPU, the model gate's GPU half: the GEMMs (gemm_f16 and the
// tiled kernel HIP builds use, held to the CPU's fp32 product), the whole stack against the CPU
// model at a small grid along both paths, and native against generic at both real grids, channel
// by channel with the channel order checked. Without a GPU these skip with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cases/pangu/block_stack.h"
#include "cases/pangu/block_stack_cpu.h"
#include "cases/pangu/gpu/block_stack_gpu.h"
#include "cases/pangu/model_gate.h"
#include "gpu/gpu_test_support.h"
#include "kernels/gemm.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/check.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {
namespace {

using pangu::StackPath;

std::vector<std::uint16_t> unit_halves(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint16_t> values(count);
  for (auto& v : values) v = float_to_fp16(static_cast<float>(rng() % 2001) / 1000.0f - 1.0f);
  return values;
}

TEST(PanguGemm, BothImplementationsGiveTheFp32Product) {
  LC_REQUIRE_GPU();
  // Odd sizes beside the block stack's: every edge of a tile.
  for (const auto [m, n, k] : {std::array<std::int64_t, 3>{1, 1, 1}, {67, 129, 37},
                               {300, 576, 192}, {144, 192, 768}}) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
    const auto x = unit_halves(static_cast<std::size_t>(m * k), 1);
    const auto w = unit_halves(static_cast<std::size_t>(n * k), 2);
    std::vector<float> want(static_cast<std::size_t>(m * n));
    for (std::int64_t r = 0; r < m; ++r)
      for (std::int64_t c = 0; c < n; ++c) {
        double acc = 0;
        for (std::int64_t i = 0; i < k; ++i)
          acc += double{fp16_to_float(x[static_cast<std::size_t>(r * k + i)])} *
                 fp16_to_float(w[static_cast<std::size_t>(c * k + i)]);
        want[static_cast<std::size_t>(r * n + c)] = static_cast<float>(acc);
      }
    const DeviceBuffer<std::uint16_t> dx{std::span<const std::uint16_t>(x)},
        dw{std::span<const std::uint16_t>(w)};
    for (const bool tiled : {false, true}) {
      SCOPED_TRACE(tiled ? "tiled kernel" : kernels::gemm_implementation());
      DeviceBuffer<std::uint16_t> out(want.size());
      const Stream stream;
      (tiled ? kernels::tiled_gemm_f16 : kernels::gemm_f16)(dx.data(), dw.data(), out.data(), m, n,
                                                            k, stream.get());
      stream.synchronize();
      const auto got = out.to_host();
      for (std::size_t i = 0; i < got.size(); ++i) {
        // fp16's rounding of the result plus fp32 accumulation over k terms of magnitude <= 1.
        const double allowed = std::abs(want[i]) / 1024.0 + 1e-5 * static_cast<double>(k);
        ASSERT_LE(std::abs(fp16_to_float(got[i]) - want[i]), allowed) << "element " << i;
      }
    }
  }
}

// cuBLAS drops a workspace set before cublasSetStream; gemm_f16 sets its own for every stream,
// made outside a capture, so a captured GEMM allocates nothing and one that would is refused.
TEST(PanguGemm, ACapturedGemmMatchesItsFirstRunAndAFirstGemmInACaptureIsRefused) {
  LC_REQUIRE_GPU();
  const std::int64_t m = 300, n = 576, k = 192;
  const auto x = unit_halves(static_cast<std::size_t>(m * k), 3);
  const auto w = unit_halves(static_cast<std::size_t>(n * k), 4);
  const DeviceBuffer<std::uint16_t> dx{std::span<const std::uint16_t>(x)},
      dw{std::span<const std::uint16_t>(w)};
  DeviceBuffer<std::uint16_t> first(static_cast<std::size_t>(m * n)),
      captured(static_cast<std::size_t>(m * n));
  const auto gemm_into = [&](DeviceBuffer<std::uint16_t>& out) {
    return [&](hipStream_t s) { kernels::gemm_f16(dx.data(), dw.data(), out.data(), m, n, k, s); };
  };
  const Stream stream(Stream::Kind::non_blocking);
  gemm_into(first)(stream.get());
  const Graph graph(stream, gemm_into(captured));
  graph.launch(stream);
  stream.synchronize();
  EXPECT_EQ(captured.to_host(), first.to_host());

  const Stream fresh(Stream::Kind::non_blocking);
  if (std::string(kernels::gemm_implementation()) == "cuBLAS") {
    try {
      const Graph refused(fresh, gemm_into(captured));
      FAIL() << "a first cuBLAS GEMM inside a capture was not refused";
    } catch (const GpuError& error) {
      EXPECT_NE(std::string(error.what()).find("inside a graph capture"), std::string::npos)
          << error.what();
    }
  } else {
    EXPECT_NO_THROW({ const Graph accepted(fresh, gemm_into(captured)); });  // no workspace
  }
  // The stream is usable after the refused capture.
  gemm_into(captured)(fresh.get());
  fresh.synchronize();
  EXPECT_EQ(captured.to_host(), first.to_host());
}

TEST(PanguBlockStackGpu, MatchesTheCpuModelAtASmallGrid) {
  LC_REQUIRE_GPU();
  const auto stack = pangu::make_block_stack(
      pangu::alternating_windows(LAYOUTCHECK_CONTRACTS_DIR, 3, 9, 14, 192, 2), 6, 21);
  const auto input = pangu::stack_input(stack, 5);
  const auto cpu = pangu::run_cpu_block_stack(stack, StackPath::generic, input);
  for (const StackPath path : {StackPath::native, StackPath::generic}) {
    SCOPED_TRACE(pangu::path_name(path));
    const auto gpu = run_gpu_block_stack(stack, path, input);
    const pangu::ChannelComparison gate = pangu::compare_channels(gpu, cpu, stack.channels);
    EXPECT_TRUE(gate.passed()) << gate.summary();
  }
}

TEST(PanguBlockStackGpu, NativeMatchesGenericAtBothRealGrids) {
  LC_REQUIRE_GPU();
  struct Level {
    std::int64_t z, lat, lon, channels, heads;
  };
  for (const Level level : {Level{8, 91, 180, 192, 6}, Level{8, 46, 90, 384, 12}}) {
    SCOPED_TRACE(std::to_string(level.channels));
    const auto stack = pangu::make_block_stack(
        pangu::alternating_windows(LAYOUTCHECK_CONTRACTS_DIR, level.z, level.lat, level.lon,
                                   level.channels, 2),
        level.heads, 22);
    const auto input = pangu::stack_input(stack, 6);
    const Stream stream(Stream::Kind::non_blocking);
    const StackRun native = time_gpu_block_stack(stack, StackPath::native, input, stream, 1, 2);
    const StackRun generic = time_gpu_block_stack(stack, StackPath::generic, input, stream, 1, 2);
    const pangu::ChannelComparison gate =
        pangu::compare_channels(native.output, generic.output, stack.channels);
    EXPECT_TRUE(gate.passed()) << gate.summary();
    EXPECT_EQ(native.replayed, native.output) << "the graph's replay differs from the first run";
    EXPECT_EQ(generic.replayed, generic.output);
    // The MLP's activations set both peaks; the maps are int32 beside the framework's int64.
    EXPECT_LE(native.activation_bytes, generic.activation_bytes);
    EXPECT_LT(native.index_bytes, generic.index_bytes);
    EXPECT_LT(native.launches, generic.launches);
  }
}

}  // namespace
}  // namespace layoutcheck::gpu
