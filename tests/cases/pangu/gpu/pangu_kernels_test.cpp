// The Pangu kernels on the GPU against the CPU reference (cases/pangu/layer_norm.h and the
// contracts' gather maps): LayerNorm, add + LayerNorm (the residual bitwise the fp16 rounding of
// the sum), the window gather and its reverse bitwise, LayerNorm fused with the gather, at the
// real shapes and at boundary ones; illegal widths refused before any launch; and the shared
// probe engine over the GPU runners (the gather exactly the contract's map, each LayerNorm row
// reading exactly its own row). Without a GPU these skip with the reason.
#include "kernels/pangu/pangu_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cases/pangu/gpu/device_walk.h"
#include "cases/pangu/gpu/pangu_gpu_runners.h"
#include "cases/pangu/layer_norm.h"
#include "cases/pangu/layer_norm_case.h"
#include "cases/pangu/window_gather_case.h"
#include "gpu/gpu_test_support.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/gather_walk.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/device.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/probe/case_probe.h"

namespace layoutcheck::gpu {
namespace {

using Halves = std::vector<std::uint16_t>;

Halves random_rows(std::int64_t rows, std::int64_t width, std::uint64_t seed, float scale = 2.0f,
                   float offset = 0.0f) {
  std::mt19937_64 rng(seed);
  Halves values(static_cast<std::size_t>(rows * width));
  for (auto& value : values)
    value = float_to_fp16(offset + scale * (static_cast<float>(rng() >> 40) * 0x1.0p-24f - 0.5f));
  return values;
}

Halves cpu_layer_norm(const Halves& x, std::int64_t width) {
  return pangu::layer_norm_rows(x, width);
}

Halves gpu_layer_norm(const Halves& x, std::int64_t width) {
  DeviceBuffer<std::uint16_t> in{std::span<const std::uint16_t>(x)}, out(x.size());
  Stream stream;
  kernels::pangu_layer_norm(in.data(), out.data(), static_cast<std::int64_t>(x.size()) / width,
                            width, stream.get());
  stream.synchronize();
  return out.to_host();
}

// Within fp16's rounding of the output and the kernels' fp32 statistics: 2 ulp of fp16 at the
// reference's magnitude, or 2^-12 near zero. NaN where the reference has NaN.
void expect_close(const Halves& got, const Halves& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float g = fp16_to_float(got[i]), w = fp16_to_float(want[i]);
    const bool ok = std::isnan(w)
                        ? std::isnan(g)
                        : std::abs(g - w) <= std::max(2.0f * std::abs(w) / 1024.0f, 0x1.0p-12f);
    if (!ok && bad++ < 3)
      ADD_FAILURE() << what << ": element " << i << " is " << g << ", want " << w;
  }
  EXPECT_EQ(bad, 0) << what;
}

TEST(PanguLayerNorm, MatchesTheReferenceAtTheRealShapes) {
  LC_REQUIRE_GPU();
  for (const auto& [rows, width] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {131040, 192}, {32760, 384}, {33120, 768}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(width));
    const Halves x = random_rows(rows, width, 1);
    expect_close(gpu_layer_norm(x, width), cpu_layer_norm(x, width), "LayerNorm");
  }
}

TEST(PanguLayerNorm, BoundaryRowsKeepTheirValues) {
  LC_REQUIRE_GPU();
  for (std::int64_t rows : {1, 3, 5, 131041}) {
    SCOPED_TRACE(rows);
    const Halves x = random_rows(rows, 192, 2);
    expect_close(gpu_layer_norm(x, 192), cpu_layer_norm(x, 192), "rows");
  }
  // Constant rows, a large mean with the finest spread fp16 has there (its step at 1000 is 0.5),
  // the extremes, subnormals, inf and NaN.
  Halves x = random_rows(6, 384, 3, 2.0f, 1000.0f);
  for (std::int64_t c = 0; c < 384; ++c) {
    x[c] = float_to_fp16(7.0f);                                    // row 0: constant
    x[2 * 384 + c] = float_to_fp16(c % 2 ? 65504.0f : -65504.0f);  // row 2: the fp16 extremes
    x[3 * 384 + c] = static_cast<std::uint16_t>(1 + c % 5);        // row 3: subnormals
  }
  x[4 * 384 + 5] = 0x7c00;  // row 4: +inf
  x[5 * 384 + 9] = 0x7e00;  // row 5: NaN
  const Halves got = gpu_layer_norm(x, 384), want = cpu_layer_norm(x, 384);
  expect_close(got, want, "special rows");
  for (std::int64_t c = 0; c < 384; ++c) {
    EXPECT_EQ(fp16_to_float(got[c]), 0.0f);
    EXPECT_TRUE(std::isnan(fp16_to_float(got[5 * 384 + c])));
  }
  // The large-mean row is no constant row in fp16: its normalised values are not all zero.
  EXPECT_TRUE(std::any_of(got.begin() + 384, got.begin() + 768,
                          [](std::uint16_t h) { return fp16_to_float(h) != 0.0f; }));
  const Halves fine = random_rows(4, 768, 5, 0.035f, 12.0f);  // mean 12, spread 0.01
  expect_close(gpu_layer_norm(fine, 768), cpu_layer_norm(fine, 768), "mean 12, spread 0.01");
}

TEST(PanguLayerNorm, OtherWidthsAndMisalignedViewsAreRefusedBeforeAnyLaunch) {
  LC_REQUIRE_GPU();
  DeviceBuffer<std::uint16_t> buffer(256 * 4);
  Stream stream;
  for (std::int64_t width : {191, 256, 96, 0}) {
    SCOPED_TRACE(width);
    EXPECT_THROW(kernels::pangu_layer_norm(buffer.data(), buffer.data(), 2, width, stream.get()),
                 std::invalid_argument);
    EXPECT_THROW(kernels::pangu_layer_norm_gather(buffer.data(), nullptr, buffer.data(), 2, width,
                                                  stream.get()),
                 std::invalid_argument);
  }
  EXPECT_THROW(kernels::pangu_gather(buffer.data(), nullptr, buffer.data(), 2, 12, stream.get()),
               std::invalid_argument);
  // A view one fp16 into the buffer: off the 16-byte pieces the kernels move, refused.
  DeviceBuffer<GatherStep> map(std::vector<GatherStep>{{0, 0}, {1, 1}});
  EXPECT_THROW(kernels::pangu_layer_norm(buffer.data() + 1, buffer.data(), 1, 192, stream.get()),
               std::invalid_argument);
  EXPECT_THROW(kernels::pangu_add_layer_norm(buffer.data(), buffer.data(), buffer.data() + 8,
                                             buffer.data() + 3, 1, 192, stream.get()),
               std::invalid_argument);
  EXPECT_THROW(
      kernels::pangu_gather(buffer.data() + 4, map.data(), buffer.data(), 2, 192, stream.get()),
      std::invalid_argument);
  EXPECT_THROW(kernels::pangu_layer_norm_gather(buffer.data(), map.data(), buffer.data() + 2, 2,
                                                192, stream.get()),
               std::invalid_argument);
  stream.synchronize();
}

TEST(PanguAddLayerNorm, TheResidualIsTheRoundedSum) {
  LC_REQUIRE_GPU();
  const std::int64_t rows = 131040, width = 192;
  const Halves residual = random_rows(rows, width, 4, 200.0f), branch = random_rows(rows, width, 5);
  DeviceBuffer<std::uint16_t> r{std::span<const std::uint16_t>(residual)},
      b{std::span<const std::uint16_t>(branch)}, r_out(residual.size()), out(residual.size());
  Stream stream;
  kernels::pangu_add_layer_norm(r.data(), b.data(), r_out.data(), out.data(), rows, width,
                                stream.get());
  stream.synchronize();
  const pangu::AddLayerNormRows want_rows = pangu::add_layer_norm_rows(residual, branch, width);
  const Halves& want_residual = want_rows.residual_out;
  const Halves& want = want_rows.out;
  EXPECT_EQ(r_out.to_host(), want_residual);  // bitwise: the rounding point kept
  expect_close(out.to_host(), want, "add + LayerNorm");
}

Contract windows_contract(std::int64_t lat, std::int64_t lon, std::int64_t channels, bool shifted) {
  LoadOptions options;
  options.overrides = {{"LAT", lat}, {"LON", lon}, {"C", channels}};
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/" +
                           (shifted ? "windows.shifted.yaml" : "windows.yaml"),
                       options);
}

Halves cpu_gather(const Halves& x, const std::vector<std::int32_t>& map, std::int64_t width) {
  Halves out(map.size() * static_cast<std::size_t>(width), 0);
  for (std::size_t s = 0; s < map.size(); ++s)
    if (map[s] >= 0)
      std::copy_n(x.begin() + map[s] * width, width,
                  out.begin() + static_cast<std::int64_t>(s) * width);
  return out;
}

// A walk of a map, on the device.
DeviceBuffer<GatherStep> device_walk(const std::vector<std::int32_t>& map, WalkOrder order) {
  const std::vector<GatherStep> walk = gather_walk(map, order);
  return DeviceBuffer<GatherStep>(std::span<const GatherStep>(walk));
}

TEST(PanguGather, IsTheContractsMapAndItsReverseRestoresTheGrid) {
  LC_REQUIRE_GPU();
  for (const auto& [lat, lon, channels] :
       std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>>{{91, 180, 192},
                                                                         {46, 90, 384}}) {
    for (bool shifted : {false, true}) {
      SCOPED_TRACE(std::to_string(lat) + (shifted ? " shifted" : ""));
      const GatherMap map = make_gather_map(windows_contract(lat, lon, channels, shifted));
      const Halves x = random_rows(map.tokens, channels, 6);
      DeviceBuffer<std::uint16_t> in{std::span<const std::uint16_t>(x)},
          windows(map.slots.size() * static_cast<std::size_t>(channels)), back(x.size());
      DeviceBuffer<GatherStep> forward = upload_walk(map.slots, channels);
      const std::vector<std::int32_t> reverse = reverse_map(map);
      DeviceBuffer<GatherStep> backward = upload_walk(reverse, channels);
      Stream stream;
      kernels::pangu_gather(in.data(), forward.data(), windows.data(),
                            static_cast<std::int64_t>(map.slots.size()), channels, stream.get());
      kernels::pangu_gather(windows.data(), backward.data(), back.data(), map.tokens, channels,
                            stream.get());
      stream.synchronize();
      EXPECT_EQ(windows.to_host(), cpu_gather(x, map.slots, channels));
      EXPECT_EQ(back.to_host(), x);

      // LayerNorm fused with the gather: the LayerNorm of each gathered token, zeros in padding.
      DeviceBuffer<std::uint16_t> fused(windows.size());
      kernels::pangu_layer_norm_gather(in.data(), forward.data(), fused.data(),
                                       static_cast<std::int64_t>(map.slots.size()), channels,
                                       stream.get());
      stream.synchronize();
      expect_close(fused.to_host(), cpu_gather(cpu_layer_norm(x, channels), map.slots, channels),
                   "LayerNorm + gather");
    }
  }
}

// A map of `slots` entries over `tokens` tokens: every third entry -1, the rest scattered.
std::vector<std::int32_t> scattered_map(std::int64_t slots, std::int64_t tokens) {
  std::vector<std::int32_t> map(static_cast<std::size_t>(slots));
  for (std::int64_t s = 0; s < slots; ++s)
    map[static_cast<std::size_t>(s)] =
        s % 3 == 2 ? -1 : static_cast<std::int32_t>((s * 7919) % tokens);
  return map;
}

TEST(PanguGather, MovesTokensOfAnyWholePieceWidth) {
  LC_REQUIRE_GPU();
  // One piece; a wave's two slots; 33, 65 and 129 pieces, past one and two steps of a wave; each
  // walked both ways (any order of the steps writes the same slots).
  for (const std::int64_t width : {8, 192, 256, 264, 384, 520, 1032}) {
    for (const std::int64_t slots : {1, 2, 7, 4099}) {
      SCOPED_TRACE(std::to_string(width) + " wide, " + std::to_string(slots) + " slots");
      const std::int64_t tokens = 1000;
      const Halves x = random_rows(tokens, width, 8);
      const std::vector<std::int32_t> map = scattered_map(slots, tokens);
      DeviceBuffer<std::uint16_t> in{std::span<const std::uint16_t>(x)},
          out(static_cast<std::size_t>(slots * width));
      out.fill_bytes(0xff);
      Stream stream;
      for (const WalkOrder order : {WalkOrder::by_token, WalkOrder::by_slot}) {
        const DeviceBuffer<GatherStep> device_map = device_walk(map, order);
        out.fill_bytes(0xff);
        kernels::pangu_gather(in.data(), device_map.data(), out.data(), slots, width, stream.get());
        stream.synchronize();
        EXPECT_EQ(out.to_host(), cpu_gather(x, map, width))
            << "walked by slot: " << (order == WalkOrder::by_slot);
      }
    }
  }
}

TEST(PanguLayerNormGather, OddSlotCountsAndPaddingAtEveryWidth) {
  LC_REQUIRE_GPU();
  for (const std::int64_t width : {192, 384, 768}) {
    for (const std::int64_t slots : {1, 3, 4097}) {
      SCOPED_TRACE(std::to_string(width) + " wide, " + std::to_string(slots) + " slots");
      const std::int64_t tokens = 500;
      const Halves x = random_rows(tokens, width, 9, 8.0f, 3.0f);
      const std::vector<std::int32_t> map = scattered_map(slots, tokens);
      DeviceBuffer<std::uint16_t> in{std::span<const std::uint16_t>(x)},
          out(static_cast<std::size_t>(slots * width));
      out.fill_bytes(0xff);
      Stream stream;
      for (const WalkOrder order : {WalkOrder::by_token, WalkOrder::by_slot}) {
        const DeviceBuffer<GatherStep> device_map = device_walk(map, order);
        out.fill_bytes(0xff);
        kernels::pangu_layer_norm_gather(in.data(), device_map.data(), out.data(), slots, width,
                                         stream.get());
        stream.synchronize();
        expect_close(out.to_host(), cpu_gather(cpu_layer_norm(x, width), map, width),
                     order == WalkOrder::by_slot ? "walked by slot" : "walked by token");
      }
    }
  }
}

// Each kernel in a graph of chained calls, each reading what the call before wrote: launched
// overlapped, the chain must end exactly where serial launches end, or a kernel read before its
// wait.
TEST(PanguKernels, OverlappedChainsEndWhereSerialOnesDo) {
  LC_REQUIRE_GPU();
  if (!current_device().overlapped_launches)
    GTEST_SKIP() << *overlapped_launch_refusal(current_device());
  constexpr int kSteps = 6;
  for (const std::int64_t width : {192, 384}) {
    const std::int64_t tokens = 33120, slots = 36864;
    const std::vector<std::int32_t> map = scattered_map(slots, tokens);
    DeviceBuffer<GatherStep> device_map = upload_walk(map, width);
    Halves start = random_rows(slots, width, 10);
    // [kernel] -> one step from buffers a, b to c, d (b and d only for add + LayerNorm).
    using Step = std::function<void(std::uint16_t*, std::uint16_t*, std::uint16_t*,
                                    std::uint16_t*, hipStream_t, kernels::LaunchOrder)>;
    const std::vector<std::pair<std::string, Step>> kernels_under_test = {
        {"LayerNorm",
         [&](auto* a, auto*, auto* c, auto*, hipStream_t s, kernels::LaunchOrder order) {
           kernels::pangu_layer_norm(a, c, tokens, width, s, order);
         }},
        {"add + LayerNorm",
         [&](auto* a, auto* b, auto* c, auto* d, hipStream_t s, kernels::LaunchOrder order) {
           kernels::pangu_add_layer_norm(a, b, c, d, tokens, width, s, order);
         }},
        {"gather",
         [&](auto* a, auto*, auto* c, auto*, hipStream_t s, kernels::LaunchOrder order) {
           kernels::pangu_gather(a, device_map.data(), c, slots, width, s, order);
         }},
        {"LayerNorm + gather",
         [&](auto* a, auto*, auto* c, auto*, hipStream_t s, kernels::LaunchOrder order) {
           kernels::pangu_layer_norm_gather(a, device_map.data(), c, slots, width, s, order);
         }},
    };
    for (const auto& kernel : kernels_under_test) {
      const Step& step = kernel.second;  // named, not bound: clang 15 cannot capture a binding
      SCOPED_TRACE(kernel.first + " at " + std::to_string(width));
      std::vector<DeviceBuffer<std::uint16_t>> buffers;
      for (int i = 0; i < 4; ++i) buffers.emplace_back(start.size());
      const Stream stream;
      const auto run = [&](kernels::LaunchOrder order) {
        buffers[0].upload(start);
        buffers[1].upload(start);
        const Graph graph(stream, [&](hipStream_t s) {
          for (int k = 0; k < kSteps; ++k) {
            const int from = 2 * (k % 2), to = 2 - from;
            step(buffers[from].data(), buffers[from + 1].data(), buffers[to].data(),
                 buffers[to + 1].data(), s, order);
          }
        });
        graph.launch(stream);
        stream.synchronize();
        return std::pair{buffers[0].to_host(), buffers[1].to_host()};
      };
      const auto serial = run(kernels::LaunchOrder::serial);
      const auto overlapped = run(kernels::LaunchOrder::overlapped);
      EXPECT_TRUE(serial.first == overlapped.first);
      EXPECT_TRUE(serial.second == overlapped.second);
    }
  }
}

CaseLayouts pangu_layouts(const std::string& first, const std::string& second,
                          const std::vector<std::pair<std::string, std::int64_t>>& sizes,
                          const std::string& first_buffer, const std::string& second_buffer) {
  LoadOptions options;
  options.overrides = sizes;
  const std::string folder = std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/";
  return {{first_buffer, load_contract(folder + first, options)},
          {second_buffer, load_contract(folder + second, options)}};
}

TEST(PanguProbes, TheGpuGatherIsExactlyTheContractsMapAndEachRowReadsItsOwn) {
  LC_REQUIRE_GPU();
  {
    const CaseLayouts layouts = pangu_layouts("grid.yaml", "windows.shifted.yaml",
                                              {{"LAT", 46}, {"LON", 90}, {"C", 8}}, "x", "windows");
    CaseProbeRequest request;
    request.buffer = "x";
    request.model = request.claimed = layouts;
    const auto gather = make_gpu_window_gather(layouts);
    const CaseVerdict verdict =
        probe_case(*make_pangu_window_gather_case(), *gather, kDataMovementDecoder, request);
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
  {
    // A token of 384 channels: the gather's group kernel, walked by source token, on a grid that
    // pads every axis and wraps the shift.
    const CaseLayouts layouts =
        pangu_layouts("grid.yaml", "windows.shifted.yaml",
                      {{"Z", 2}, {"LAT", 7}, {"LON", 13}, {"C", 384}}, "x", "windows");
    CaseProbeRequest request;
    request.buffer = "x";
    request.model = request.claimed = layouts;
    const auto gather = make_gpu_window_gather(layouts);
    const CaseVerdict verdict =
        probe_case(*make_pangu_window_gather_case(), *gather, kDataMovementDecoder, request);
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
  // Each width's group of lanes (8, 16 and 32 lanes a row, three pieces a lane).
  for (const std::int64_t width : {192, 384, 768}) {
    SCOPED_TRACE(width);
    const CaseLayouts layouts =
        pangu_layouts("tokens.yaml", "tokens.out.yaml", {{"C", width}}, "x", "out");
    CaseProbeRequest request;
    request.buffer = "x";
    request.model = request.claimed = layouts;
    request.rows = 3;
    const auto norm = make_gpu_layer_norm(layouts);
    const CaseVerdict verdict =
        probe_case(*make_pangu_layer_norm_case(), *norm, kDependenceDecoder, request);
    EXPECT_TRUE(verdict.clean()) << case_verdict_text(verdict);
  }
  // A width the kernels are not built for is refused when the runner is made.
  EXPECT_THROW(make_gpu_layer_norm(
                   pangu_layouts("tokens.yaml", "tokens.out.yaml", {{"C", 256}}, "x", "out")),
               InputError);
}

}  // namespace
}  // namespace layoutcheck::gpu
