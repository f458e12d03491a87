// A porting team's probe test, against the INSTALLED layoutcheck only: a GDN decode step of its
// own (plain fp32 C++, the way a first port is often written), addressing the Qwen3.5 flat
// buffers by hand, checked in one line with layoutcheck's GoogleTest helper. A copy with the
// classic bug (Q and K segments swapped) must fail with the probe's summary.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cases/gdn/problem.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/probe/gtest.h"

namespace {

using layoutcheck::bf16_bits;
using layoutcheck::bf16_to_float;
using layoutcheck::float_to_bf16;
using layoutcheck::GdnShape;
using layoutcheck::GdnStepInputs;
using layoutcheck::GdnStepOutputs;

float silu(float x) {
  return x / (1.0f + std::exp(-x));
}

// The kernel under test: flat qkvz [Q|K|V|Z], flat ba [B|A], state [HV][K][V], fp32 maths.
GdnStepOutputs my_gdn_step(const GdnStepInputs& in, bool swap_q_and_k) {
  const GdnShape s = in.shape;
  const std::int64_t H = s.H, HV = s.HV, K = s.K, V = s.V, W = s.W, C = s.conv_channels();
  GdnStepOutputs out;
  out.out.resize(in.batch * HV * V);
  out.conv_state.resize(in.batch * C * (W - 1));
  out.state = in.state;
  for (std::int64_t b = 0; b < in.batch; ++b) {
    const bf16_bits* row = in.qkvz.data() + b * in.qkvz_row_stride;
    const bf16_bits* ba = in.ba.data() + b * in.ba_row_stride;
    // conv channels [Q|K|V] read straight from the flat row (Z follows them)
    std::vector<float> x(C), y(C);
    for (std::int64_t c = 0; c < C; ++c) {
      std::int64_t offset = c;
      if (swap_q_and_k && c < 2 * H * K) offset = c < H * K ? c + H * K : c - H * K;
      x[c] = bf16_to_float(row[offset]);
    }
    for (std::int64_t c = 0; c < C; ++c) {
      const bf16_bits* taps = in.conv_state.data() + (b * C + c) * (W - 1);
      float sum = bf16_to_float(in.weights.conv_weight[c * W + W - 1]) * x[c];
      for (std::int64_t j = 0; j < W - 1; ++j)
        sum += bf16_to_float(in.weights.conv_weight[c * W + j]) * bf16_to_float(taps[j]);
      y[c] = silu(sum);
      bf16_bits* shifted = out.conv_state.data() + (b * C + c) * (W - 1);
      for (std::int64_t j = 0; j + 1 < W - 1; ++j) shifted[j] = taps[j + 1];
      shifted[W - 2] = float_to_bf16(x[c]);
    }
    for (std::int64_t hv = 0; hv < HV; ++hv) {
      const std::int64_t h = hv / (HV / H);
      std::vector<float> q(y.begin() + h * K, y.begin() + (h + 1) * K);
      std::vector<float> k(y.begin() + H * K + h * K, y.begin() + H * K + (h + 1) * K);
      const float* v = y.data() + 2 * H * K + hv * V;
      float qq = 0, kk = 0;
      for (std::int64_t i = 0; i < K; ++i) {
        qq += q[i] * q[i];
        kk += k[i] * k[i];
      }
      for (std::int64_t i = 0; i < K; ++i) {
        q[i] /= std::sqrt(qq + 1e-6f) * std::sqrt(float(K));
        k[i] /= std::sqrt(kk + 1e-6f);
      }
      const float a = bf16_to_float(ba[HV + hv]) + in.weights.dt_bias[hv];
      const float g = -std::exp(in.weights.A_log[hv]) * (a > 20 ? a : std::log1p(std::exp(a)));
      const float beta = 1 / (1 + std::exp(-bf16_to_float(ba[hv])));
      float* S = out.state.data() + b * HV * K * V + hv * K * V;
      std::vector<float> o(V, 0.0f);
      for (std::int64_t j = 0; j < V; ++j) {
        float stk = 0;
        for (std::int64_t i = 0; i < K; ++i) stk += S[i * V + j] * std::exp(g) * k[i];
        const float u = beta * (v[j] - stk);
        for (std::int64_t i = 0; i < K; ++i) {
          S[i * V + j] = S[i * V + j] * std::exp(g) + k[i] * u;
          o[j] += S[i * V + j] * q[i];
        }
      }
      float mean_square = 0;
      for (float value : o) mean_square += value * value / float(V);
      for (std::int64_t j = 0; j < V; ++j) {
        const float z = bf16_to_float(row[2 * H * K + HV * V + hv * V + j]);
        out.out[(b * HV + hv) * V + j] =
            float_to_bf16(o[j] / std::sqrt(mean_square + 1e-6f) *
                          bf16_to_float(in.weights.norm_weight[j]) * silu(z));
      }
    }
  }
  return out;
}

const GdnShape kShape{2, 4, 8, 8, 4};

TEST(InstalledProbeHelper, MyFlatKernelReadsTheQwen35Layout) {
  auto kernel = [](const GdnStepInputs& in) { return my_gdn_step(in, false); };
  EXPECT_TRUE(layoutcheck::ReadsGdnLayouts(kernel, kShape, layoutcheck::flat_gdn_layouts(kShape)));
}

TEST(InstalledProbeHelper, AKernelWithQAndKSwappedFailsWithTheMisreadSummary) {
  auto broken = [](const GdnStepInputs& in) { return my_gdn_step(in, true); };
  const testing::AssertionResult result =
      layoutcheck::ReadsGdnLayouts(broken, kShape, layoutcheck::flat_gdn_layouts(kShape));
  ASSERT_FALSE(result);
  const std::string message = result.message();
  EXPECT_NE(message.find("the kernel reads Q[0:2,0:8] from offsets 16-31, which hold K[0:2,0:8]"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("layout misread: 32 of 96 elements"), std::string::npos) << message;
}

TEST(InstalledProbeHelper, AnInterleavedProducerIsCaughtToo) {
  // The same correct kernel wired to a Qwen3-Next (interleaved) producer.
  layoutcheck::CallableRunner kernel(
      [](const GdnStepInputs& in) { return my_gdn_step(in, false); });
  const layoutcheck::GdnLayouts flat = layoutcheck::flat_gdn_layouts(kShape);
  const layoutcheck::ProbeTarget target{kShape, layoutcheck::GdnBuffer::qkvz,
                                        layoutcheck::interleaved_qkvz_contract(kShape), flat};
  EXPECT_FALSE(layoutcheck::ReadsGdnBuffer(kernel, target));
  const layoutcheck::ProbeVerdict verdict = layoutcheck::probe_gdn_runner(kernel, target);
  EXPECT_TRUE(verdict.agrees_with_diff);
  EXPECT_GT(verdict.reads.misread, 0);
}

}  // namespace
