#include "cases/gdn/value_head.h"

#include <Eigen/Core>
#include <cmath>
#include <cstddef>

namespace layoutcheck {
namespace {

using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1>;
using VectorMap = Eigen::Map<Vector>;

constexpr double kNormEpsilon = 1e-6;

// The state passes run 10^5 times per probe sweep, so they are plain loops over contiguous rows
// that the compiler vectorises; x86-64 builds also get AVX2 and AVX-512 clones picked at load
// time. None reassociates a sum, and contraction to FMA is off, so every clone gives the same
// bits as the plain build.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__)
#define LAYOUTCHECK_VECTOR_CLONES \
  __attribute__((target_clones("avx512f", "avx2", "default"), optimize("fp-contract=off")))
#else
#define LAYOUTCHECK_VECTOR_CLONES
#endif

double silu(double x) {
  return x / (1.0 + std::exp(-x));
}

void l2_normalise(std::vector<double>& x, double scale) {
  VectorMap vector(x.data(), static_cast<Eigen::Index>(x.size()));
  vector *= scale / std::sqrt(vector.squaredNorm() + kNormEpsilon);
}

// Pass 1: state_dot_k[v] = sum_k (decay * S[k][v]) * k[k], k ascending.
template <class Stored>
inline __attribute__((always_inline)) void decayed_state_dot_k_body(
    const Stored* __restrict state, std::int64_t k_stride, const double* __restrict key,
    double decay, std::int64_t K, std::int64_t V, double* __restrict state_dot_k) {
  for (std::int64_t v = 0; v < V; ++v) state_dot_k[v] = 0.0;
  for (std::int64_t k = 0; k < K; ++k) {
    const Stored* __restrict row = state + k * k_stride;
    const double key_k = key[k];
    for (std::int64_t v = 0; v < V; ++v)
      state_dot_k[v] += (decay * static_cast<double>(row[v])) * key_k;
  }
}

// Pass 2: S'[k][v] = decay * S[k][v] + k[k] * u[v] (stored when new_state is not null) and
// o[v] = sum_k S'[k][v] * q[k], k ascending.
template <class Stored>
inline __attribute__((always_inline)) void update_state_and_read_body(
    const Stored* state, std::int64_t k_stride, const double* __restrict key,
    const double* __restrict query, const double* __restrict update, double decay, std::int64_t K,
    std::int64_t V, Stored* new_state, std::int64_t new_k_stride, double* __restrict out) {
  for (std::int64_t v = 0; v < V; ++v) out[v] = 0.0;
  for (std::int64_t k = 0; k < K; ++k) {
    const Stored* row = state + k * k_stride;
    const double key_k = key[k];
    const double query_k = query[k];
    if (new_state) {
      Stored* new_row = new_state + k * new_k_stride;
      for (std::int64_t v = 0; v < V; ++v) {
        const double updated = decay * static_cast<double>(row[v]) + key_k * update[v];
        new_row[v] = static_cast<Stored>(updated);
        out[v] += updated * query_k;
      }
    } else {
      for (std::int64_t v = 0; v < V; ++v)
        out[v] += (decay * static_cast<double>(row[v]) + key_k * update[v]) * query_k;
    }
  }
}

LAYOUTCHECK_VECTOR_CLONES
void decayed_state_dot_k(const double* state, std::int64_t k_stride, const double* key,
                         double decay, std::int64_t K, std::int64_t V, double* state_dot_k) {
  decayed_state_dot_k_body(state, k_stride, key, decay, K, V, state_dot_k);
}

LAYOUTCHECK_VECTOR_CLONES
void decayed_state_dot_k(const float* state, std::int64_t k_stride, const double* key, double decay,
                         std::int64_t K, std::int64_t V, double* state_dot_k) {
  decayed_state_dot_k_body(state, k_stride, key, decay, K, V, state_dot_k);
}

LAYOUTCHECK_VECTOR_CLONES
void update_state_and_read(const double* state, std::int64_t k_stride, const double* key,
                           const double* query, const double* update, double decay, std::int64_t K,
                           std::int64_t V, double* new_state, std::int64_t new_k_stride,
                           double* out) {
  update_state_and_read_body(state, k_stride, key, query, update, decay, K, V, new_state,
                             new_k_stride, out);
}

LAYOUTCHECK_VECTOR_CLONES
void update_state_and_read(const float* state, std::int64_t k_stride, const double* key,
                           const double* query, const double* update, double decay, std::int64_t K,
                           std::int64_t V, float* new_state, std::int64_t new_k_stride,
                           double* out) {
  update_state_and_read_body(state, k_stride, key, query, update, decay, K, V, new_state,
                             new_k_stride, out);
}

// Steps 1-3: conv, normalisation, gates.
void prepare_head(const GdnShape& shape, const GdnHeadInputs& inputs, GdnHeadResult& result,
                  const GdnHeadFaults& faults) {
  const std::int64_t K = shape.K, W = shape.W;
  // 1. causal conv + silu over the head's channels
  auto convolve = [&](std::span<const double> x, std::span<const double> taps,
                      std::span<const double> weight, std::span<const double> done,
                      std::vector<double>& y) {
    if (!done.empty()) {
      y.assign(done.begin(), done.end());
      return;
    }
    y.resize(x.size());
    gdn_causal_conv(x, taps, weight, W, y);
  };
  convolve(inputs.q_x, inputs.q_taps, inputs.q_weight, inputs.q_conv, result.q);
  convolve(inputs.k_x, inputs.k_taps, inputs.k_weight, inputs.k_conv, result.k);
  convolve(inputs.v_x, inputs.v_taps, inputs.v_weight, inputs.v_conv, result.v);
  // 2. l2norm with the epsilon inside the root; q scaled by K^-0.5
  const double query_scale = 1.0 / std::sqrt(static_cast<double>(K));
  if (faults.skip_l2norm) {
    VectorMap(result.q.data(), K) *= query_scale;
  } else {
    l2_normalise(result.q, query_scale);
    l2_normalise(result.k, 1.0);
  }
  // 3. gates in fp32
  result.g = gdn_log_decay(inputs.a, inputs.A_log, inputs.dt_bias);
  result.beta = gdn_beta(inputs.b);
  result.decay = std::exp(static_cast<double>(result.g));
}

// Step 4 around the two passes: S *= exp(g); u = beta * (v - S^T k); S += k (x) u; o = S^T q.
template <class Stored>
void delta_rule(const GdnShape& shape, const Stored* state, std::int64_t k_stride,
                Stored* new_state, std::int64_t new_k_stride, GdnHeadResult& result) {
  const std::int64_t K = shape.K, V = shape.V;
  result.workspace.resize(static_cast<std::size_t>(2 * V));
  double* state_dot_k = result.workspace.data();
  double* update = state_dot_k + V;
  decayed_state_dot_k(state, k_stride, result.k.data(), result.decay, K, V, state_dot_k);
  const double beta = result.beta;
  for (std::int64_t v = 0; v < V; ++v) update[v] = beta * (result.v[v] - state_dot_k[v]);
  result.out.resize(static_cast<std::size_t>(V));
  update_state_and_read(state, k_stride, result.k.data(), result.q.data(), update, result.decay, K,
                        V, new_state, new_k_stride, result.out.data());
}

// Step 5: gated RMSNorm over V, weight used directly, times silu(z).
void gated_rms_norm(const GdnShape& shape, const GdnHeadInputs& inputs, GdnHeadResult& result) {
  const std::int64_t V = shape.V;
  VectorMap out(result.out.data(), V);
  const double inverse_rms =
      1.0 / std::sqrt(out.squaredNorm() / static_cast<double>(V) + kNormEpsilon);
  for (std::int64_t v = 0; v < V; ++v)
    result.out[v] = result.out[v] * inverse_rms * inputs.norm_weight[v] * silu(inputs.z[v]);
}

}  // namespace

void gdn_causal_conv(std::span<const double> x, std::span<const double> taps,
                     std::span<const double> weight, std::int64_t W, std::span<double> y) {
  const std::size_t channels = x.size();
  const auto taps_per_channel = static_cast<std::size_t>(W - 1);
  for (std::size_t c = 0; c < channels; ++c) {
    const double* tap = taps.data() + c * taps_per_channel;
    const double* w = weight.data() + c * static_cast<std::size_t>(W);
    double sum = 0;
    for (std::size_t j = 0; j < taps_per_channel; ++j) sum += w[j] * tap[j];
    y[c] = silu(sum + w[taps_per_channel] * x[c]);
  }
}

float gdn_log_decay(float a, float A_log, float dt_bias) {
  const float x = a + dt_bias;
  const float softplus = x > 20.0f ? x : std::log1p(std::exp(x));
  return -std::exp(A_log) * softplus;
}

float gdn_beta(float b) {
  return 1.0f / (1.0f + std::exp(-b));
}

void compute_value_head(const GdnShape& shape, const GdnHeadInputs& inputs, GdnHeadResult& result,
                        bool want_state, const GdnHeadFaults& faults) {
  prepare_head(shape, inputs, result, faults);
  if (want_state) result.state.resize(static_cast<std::size_t>(shape.K * shape.V));
  delta_rule(shape, inputs.state.data(), shape.V, want_state ? result.state.data() : nullptr,
             shape.V, result);
  gated_rms_norm(shape, inputs, result);
}

void compute_value_head(const GdnShape& shape, const GdnHeadInputs& inputs,
                        const GdnStoredState& state, GdnHeadResult& result,
                        const GdnHeadFaults& faults) {
  prepare_head(shape, inputs, result, faults);
  delta_rule(shape, state.input, state.k_stride, state.output, state.k_stride, result);
  gated_rms_norm(shape, inputs, result);
}

}  // namespace layoutcheck
