// The fp64 GDN reference: the analytic cases of design section 5, an independent naive
// implementation of the formulas, locality of heads, and multi-step behaviour.
#include "cases/gdn/reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "cases/gdn/odd_shape.h"
#include "cases/gdn/random_problem.h"
#include "cases/gdn/relative_error.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

const GdnShape kSmall{2, 4, 8, 6, 3};  // W = 3 exercises a different tap count

double silu(double x) {
  return x / (1 + std::exp(-x));
}

// Design section 5 written out literally, one value head of one row, from logical inputs.
struct NaiveHead {
  std::vector<double> out;    // [V]
  std::vector<double> state;  // [K][V]
};

NaiveHead naive_head(const GdnLogicalInputs& in, std::int64_t row, std::int64_t hv) {
  const GdnShape& s = in.shape;
  const std::int64_t H = s.H, HV = s.HV, K = s.K, V = s.V, W = s.W, C = s.conv_channels();
  const std::int64_t h = hv / s.G();
  auto conv = [&](std::int64_t channel, double x) {
    double sum = 0;
    for (std::int64_t j = 0; j < W - 1; ++j)
      sum += bf16_to_float(in.weights.conv_weight[channel * W + j]) *
             bf16_to_float(in.conv_state[(row * C + channel) * (W - 1) + j]);
    return silu(sum + bf16_to_float(in.weights.conv_weight[channel * W + W - 1]) * x);
  };
  std::vector<double> q(K), k(K), v(V);
  for (std::int64_t i = 0; i < K; ++i) {
    q[i] = conv(h * K + i, bf16_to_float(in.q[(row * H + h) * K + i]));
    k[i] = conv(H * K + h * K + i, bf16_to_float(in.k[(row * H + h) * K + i]));
  }
  for (std::int64_t i = 0; i < V; ++i)
    v[i] = conv(2 * H * K + hv * V + i, bf16_to_float(in.v[(row * HV + hv) * V + i]));
  double qq = 0, kk = 0;
  for (std::int64_t i = 0; i < K; ++i) qq += q[i] * q[i], kk += k[i] * k[i];
  for (std::int64_t i = 0; i < K; ++i) {
    q[i] = q[i] / std::sqrt(qq + 1e-6) / std::sqrt(double(K));
    k[i] = k[i] / std::sqrt(kk + 1e-6);
  }
  const float a = bf16_to_float(in.a[row * HV + hv]) + in.weights.dt_bias[hv];
  const float softplus = a > 20.0f ? a : std::log1p(std::exp(a));
  const float g = -std::exp(in.weights.A_log[hv]) * softplus;
  const float beta = 1.0f / (1.0f + std::exp(-bf16_to_float(in.b[row * HV + hv])));

  NaiveHead result{std::vector<double>(V), std::vector<double>(K * V)};
  std::vector<double>& S = result.state;
  for (std::int64_t i = 0; i < K * V; ++i)
    S[i] = std::exp(double(g)) * in.state[(row * HV + hv) * K * V + i];
  for (std::int64_t j = 0; j < V; ++j) {
    double stk = 0;
    for (std::int64_t i = 0; i < K; ++i) stk += S[i * V + j] * k[i];
    const double u = beta * (v[j] - stk);
    for (std::int64_t i = 0; i < K; ++i) S[i * V + j] += k[i] * u;
  }
  double mean_square = 0;
  for (std::int64_t j = 0; j < V; ++j) {
    double o = 0;
    for (std::int64_t i = 0; i < K; ++i) o += S[i * V + j] * q[i];
    result.out[j] = o;
    mean_square += o * o / double(V);
  }
  for (std::int64_t j = 0; j < V; ++j)
    result.out[j] *= 1 / std::sqrt(mean_square + 1e-6) * bf16_to_float(in.weights.norm_weight[j]) *
                     silu(bf16_to_float(in.z[(row * HV + hv) * V + j]));
  return result;
}

std::vector<double> head_slice(const std::vector<double>& values, std::int64_t row, std::int64_t hv,
                               std::int64_t heads, std::int64_t size) {
  const auto begin = values.begin() + (row * heads + hv) * size;
  return std::vector<double>(begin, begin + size);
}

TEST(GdnReference, MatchesTheFormulasWrittenOutNaively) {
  for (const GdnShape& shape : {kOdd, kSmall}) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      SCOPED_TRACE(::testing::Message() << "HV=" << shape.HV << " seed " << seed);
      const GdnLogicalInputs logical = make_random_logical_inputs(shape, 2, seed);
      const GdnReference reference(shape, flat_gdn_layouts(shape));
      const GdnReferenceOutputs outputs =
          reference.step_exact(lay_out(logical, reference.layouts()));
      for (std::int64_t row = 0; row < 2; ++row)
        for (std::int64_t hv = 0; hv < shape.HV; ++hv) {
          const NaiveHead expected = naive_head(logical, row, hv);
          EXPECT_LT(relative_l2(head_slice(outputs.out, row, hv, shape.HV, shape.V), expected.out),
                    1e-12);
          EXPECT_LT(relative_l2(head_slice(outputs.state, row, hv, shape.HV, shape.K * shape.V),
                                expected.state),
                    1e-12);
        }
    }
  }
}

TEST(GdnReference, ZeroBetaAndZeroDecayLeaveTheStateUnchanged) {
  const GdnShape shape = kOdd;
  const GdnLayouts layouts = flat_gdn_layouts(shape);
  const GdnReference reference(shape, layouts);
  const bf16_bits minus_infinity = float_to_bf16(-std::numeric_limits<float>::infinity());
  // g = 0 two ways: exp(A_log) = 0, or softplus(a + dt_bias) = 0; beta = sigmoid(-inf) = 0.
  for (bool through_a_log : {true, false}) {
    SCOPED_TRACE(through_a_log ? "A_log = -inf" : "a = -inf");
    GdnLogicalInputs logical = make_random_logical_inputs(shape, 2, 7);
    for (bf16_bits& b : logical.b) b = minus_infinity;
    if (through_a_log)
      for (float& A_log : logical.weights.A_log) A_log = -std::numeric_limits<float>::infinity();
    else
      for (bf16_bits& a : logical.a) a = minus_infinity;
    const GdnStepInputs inputs = lay_out(logical, layouts);
    const GdnReferenceOutputs exact = reference.step_exact(inputs);
    EXPECT_EQ(exact.state, widen(std::span<const float>(logical.state)));
    EXPECT_EQ(reference.step(inputs).state, inputs.state);
  }
}

TEST(GdnReference, ZeroInitialStateGivesBetaTimesKeyOuterValue) {
  const GdnShape shape = kOdd;
  GdnLogicalInputs logical = make_random_logical_inputs(shape, 1, 11);
  std::fill(logical.state.begin(), logical.state.end(), 0.0f);
  const GdnReference reference(shape, flat_gdn_layouts(shape));
  GdnRowData row;
  const GdnStepInputs inputs = lay_out(logical, reference.layouts());
  reference.read_row(inputs, 0, row);
  const GdnWeightsF64 weights = to_f64(inputs.weights, shape);
  const GdnReferenceOutputs outputs = reference.step_exact(inputs);
  for (std::int64_t hv = 0; hv < shape.HV; ++hv) {
    GdnHeadResult head;
    compute_value_head(shape, reference.head_inputs(row, weights, hv, hv / shape.G()), head, true);
    for (std::int64_t k = 0; k < shape.K; ++k)
      for (std::int64_t v = 0; v < shape.V; ++v)
        EXPECT_NEAR(outputs.state[(hv * shape.K + k) * shape.V + v],
                    double(head.beta) * head.k[k] * head.v[v], 1e-15);
    double key_norm = 0;
    for (double value : head.k) key_norm += value * value;
    // k-hat is normalised, and the 1e-6 inside the root keeps its norm just below one
    EXPECT_NEAR(key_norm, 1.0, 1e-4);
    EXPECT_LT(key_norm, 1.0);
  }
}

TEST(GdnReference, AHeadIgnoresEveryOtherHeadsInputs) {
  const GdnShape shape = kOdd;
  const GdnLayouts layouts = interleaved_gdn_layouts(shape);
  const GdnReference reference(shape, layouts);
  const GdnLogicalInputs base = make_random_logical_inputs(shape, 1, 5);
  const GdnReferenceOutputs base_out = reference.step_exact(lay_out(base, layouts));
  const std::int64_t hv = 4, h = hv / shape.G();
  GdnLogicalInputs other = make_random_logical_inputs(shape, 1, 99);
  // Keep everything head 4 reads; everything else comes from another problem.
  for (std::int64_t k = 0; k < shape.K; ++k) {
    other.q[h * shape.K + k] = base.q[h * shape.K + k];
    other.k[h * shape.K + k] = base.k[h * shape.K + k];
  }
  for (std::int64_t v = 0; v < shape.V; ++v) {
    other.v[hv * shape.V + v] = base.v[hv * shape.V + v];
    other.z[hv * shape.V + v] = base.z[hv * shape.V + v];
  }
  other.b[hv] = base.b[hv];
  other.a[hv] = base.a[hv];
  const std::int64_t W1 = shape.W - 1, KV = shape.K * shape.V;
  auto keep_channel = [&](std::int64_t c) {
    for (std::int64_t t = 0; t < W1; ++t)
      other.conv_state[c * W1 + t] = base.conv_state[c * W1 + t];
  };
  for (std::int64_t k = 0; k < shape.K; ++k)
    keep_channel(h * shape.K + k), keep_channel((shape.H + h) * shape.K + k);
  for (std::int64_t v = 0; v < shape.V; ++v) keep_channel(2 * shape.H * shape.K + hv * shape.V + v);
  std::copy(base.state.begin() + hv * KV, base.state.begin() + (hv + 1) * KV,
            other.state.begin() + hv * KV);
  other.weights = base.weights;

  const GdnReferenceOutputs other_out = reference.step_exact(lay_out(other, layouts));
  EXPECT_EQ(head_slice(other_out.out, 0, hv, shape.HV, shape.V),
            head_slice(base_out.out, 0, hv, shape.HV, shape.V));
  EXPECT_EQ(head_slice(other_out.state, 0, hv, shape.HV, KV),
            head_slice(base_out.state, 0, hv, shape.HV, KV));
  // and the other heads did change, so the test can fail
  EXPECT_NE(head_slice(other_out.out, 0, hv + 1, shape.HV, shape.V),
            head_slice(base_out.out, 0, hv + 1, shape.HV, shape.V));
}

TEST(GdnReference, ConvStateShiftsByOneAndKeepsRawInputs) {
  const GdnShape shape = kOdd;
  const GdnLogicalInputs logical = make_random_logical_inputs(shape, 2, 3);
  const GdnReference reference(shape, interleaved_gdn_layouts(shape));
  const GdnReferenceOutputs outputs = reference.step_exact(lay_out(logical, reference.layouts()));
  const std::int64_t C = shape.conv_channels(), W1 = shape.W - 1, H = shape.H, K = shape.K;
  for (std::int64_t row = 0; row < 2; ++row)
    for (std::int64_t c = 0; c < C; ++c) {
      const bf16_bits* before = logical.conv_state.data() + (row * C + c) * W1;
      const bf16_bits* after = outputs.conv_state.data() + (row * C + c) * W1;
      for (std::int64_t t = 0; t + 1 < W1; ++t) EXPECT_EQ(after[t], before[t + 1]);
      const bf16_bits raw = c < H * K       ? logical.q[row * H * K + c]
                            : c < 2 * H * K ? logical.k[row * H * K + c - H * K]
                                            : logical.v[row * shape.HV * shape.V + c - 2 * H * K];
      EXPECT_EQ(after[W1 - 1], raw) << "channel " << c;
    }
}

TEST(GdnReference, RoundedStepIsTheExactStepRoundedAndThreadsDoNotMatter) {
  const GdnShape shape = kSmall;
  const GdnLayouts layouts = flat_gdn_layouts(shape, StateOrder::hvk);
  const GdnReference reference(shape, layouts);
  const GdnStepInputs inputs = make_random_step_inputs(shape, layouts, 5, 21);
  const GdnReferenceOutputs exact = reference.step_exact(inputs);
  const GdnStepOutputs rounded = reference.step(inputs, 1);
  ASSERT_EQ(rounded.out.size(), exact.out.size());
  for (std::size_t i = 0; i < exact.out.size(); ++i)
    EXPECT_EQ(rounded.out[i], float_to_bf16(static_cast<float>(exact.out[i])));
  EXPECT_EQ(rounded.conv_state, exact.conv_state);
  const Field& S = *layouts.state.find_field("S");
  for (std::int64_t row = 0; row < 5; ++row)
    S.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      EXPECT_EQ(rounded.state[row * layouts.state.row_size + offset],
                static_cast<float>(exact.state[row * shape.state_elements() + linear]));
    });
  const GdnStepOutputs threaded = reference.step(inputs, 2);
  EXPECT_EQ(threaded.out, rounded.out);
  EXPECT_EQ(threaded.state, rounded.state);
  EXPECT_EQ(threaded.conv_state, rounded.conv_state);
}

TEST(GdnReference, EachBatchRowGivesWhatItGivesAlone) {
  // A probe batch: rows that repeat row 0 but for one element. Each must come out exactly as it
  // does alone, whatever the threads share.
  const GdnShape shape = kOdd;
  for (const GdnLayouts& layouts : {flat_gdn_layouts(shape), interleaved_gdn_layouts(shape)}) {
    const GdnReference reference(shape, layouts);
    const GdnStepInputs one = make_random_step_inputs(shape, layouts, 1, 31);
    GdnStepInputs batch = one;
    batch.batch = 4;
    for (std::int64_t row = 1; row < 4; ++row) {
      batch.qkvz.insert(batch.qkvz.end(), one.qkvz.begin(), one.qkvz.end());
      batch.ba.insert(batch.ba.end(), one.ba.begin(), one.ba.end());
      batch.conv_state.insert(batch.conv_state.end(), one.conv_state.begin(), one.conv_state.end());
      batch.state.insert(batch.state.end(), one.state.begin(), one.state.end());
    }
    const std::int64_t qkvz_row = one.qkvz_row_stride, state_row = shape.state_elements();
    batch.qkvz[2 * qkvz_row + 3] = float_to_bf16(3.0f);  // row 2: one Q element
    batch.state[3 * state_row + 40] += 1.0f;             // row 3: one state element
    const GdnStepOutputs together = reference.step(batch, 2);
    for (std::int64_t row = 0; row < 4; ++row) {
      SCOPED_TRACE(::testing::Message() << layouts.qkvz.name << " row " << row);
      GdnStepInputs alone = one;
      std::copy_n(batch.qkvz.begin() + row * qkvz_row, qkvz_row, alone.qkvz.begin());
      std::copy_n(batch.state.begin() + row * state_row, state_row, alone.state.begin());
      const GdnStepOutputs expected = reference.step(alone);
      const std::int64_t out_row = shape.HV * shape.V;
      EXPECT_TRUE(std::equal(expected.out.begin(), expected.out.end(),
                             together.out.begin() + row * out_row));
      EXPECT_TRUE(std::equal(expected.state.begin(), expected.state.end(),
                             together.state.begin() + row * state_row));
    }
  }
}

TEST(GdnReference, MultiStepCarriesStateAndConvStateLikeRepeatedSingleSteps) {
  const GdnShape shape = kOdd;
  const GdnLayouts layouts = flat_gdn_layouts(shape);
  const GdnReference reference(shape, layouts);
  GdnStepInputs inputs = make_random_step_inputs(shape, layouts, 2, 8);
  std::vector<std::vector<bf16_bits>> qkvz_steps, ba_steps;
  for (std::uint64_t step = 0; step < 4; ++step) {
    const GdnStepInputs fresh = make_random_step_inputs(shape, layouts, 2, 100 + step);
    qkvz_steps.push_back(fresh.qkvz);
    ba_steps.push_back(fresh.ba);
  }
  GdnReferenceSession session(reference, inputs);
  GdnStepInputs single = inputs;
  std::vector<double> logical_state;
  for (std::size_t step = 0; step < 4; ++step) {
    const GdnReferenceOutputs& multi = session.advance(qkvz_steps[step], ba_steps[step]);
    single.qkvz = qkvz_steps[step];
    single.ba = ba_steps[step];
    const GdnReferenceOutputs one =
        step == 0 ? reference.step_exact(single) : reference.step_exact(single, logical_state);
    EXPECT_EQ(multi.out, one.out);
    EXPECT_EQ(multi.state, one.state);
    EXPECT_EQ(multi.conv_state, one.conv_state);
    logical_state = one.state;
    single.conv_state = one.conv_state;
  }
  EXPECT_EQ(session.steps(), 4);

  // Stored (rounded) single steps fed back through the contracts drift only by fp32 rounding.
  GdnStepInputs stored = inputs;
  for (std::size_t step = 0; step < 4; ++step) {
    stored.qkvz = qkvz_steps[step];
    stored.ba = ba_steps[step];
    const GdnStepOutputs out = reference.step(stored);
    stored.state = out.state;
    stored.conv_state = out.conv_state;
  }
  EXPECT_EQ(stored.conv_state, session.last().conv_state);
  std::vector<double> stored_state(session.last().state.size());
  const Field& S = *layouts.state.find_field("S");
  for (std::int64_t row = 0; row < 2; ++row)
    S.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      stored_state[row * shape.state_elements() + linear] =
          stored.state[row * layouts.state.row_size + offset];
    });
  EXPECT_LT(relative_l2(stored_state, session.last().state), 1e-6);
}

TEST(GdnReference, RejectsLayoutsOfAnotherShapeAndShortBuffers) {
  const GdnShape shape = kOdd;
  GdnShape other = shape;
  other.HV = 6;
  EXPECT_THROW(GdnReference(shape, flat_gdn_layouts(other)), InputError);
  GdnLayouts swapped = flat_gdn_layouts(shape);
  std::swap(swapped.qkvz, swapped.ba);
  EXPECT_THROW(GdnReference(shape, swapped), InputError);
  const GdnReference reference(shape, flat_gdn_layouts(shape));
  GdnStepInputs inputs = make_random_step_inputs(shape, reference.layouts(), 2, 1);
  inputs.state.resize(inputs.state.size() - 1);
  EXPECT_THROW(reference.step(inputs), std::invalid_argument);
}

}  // namespace
}  // namespace layoutcheck
