#include "layoutcheck/gdn/value_head.h"

#include <cmath>
#include <cstddef>

#include <Eigen/Core>

namespace layoutcheck {
namespace {

using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1>;
using ConstVectorMap = Eigen::Map<const Vector>;
using VectorMap = Eigen::Map<Vector>;
using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrixMap = Eigen::Map<const RowMajorMatrix>;
using MatrixMap = Eigen::Map<RowMajorMatrix>;

constexpr double kNormEpsilon = 1e-6;

// The state passes run 10^5 times per probe sweep, so they are plain loops over contiguous rows
// that the compiler vectorises; x86-64 builds also get an AVX2 clone picked at load time. Neither
// reassociates a sum nor contracts to FMA, so every clone gives the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define LAYOUTCHECK_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LAYOUTCHECK_VECTOR_CLONES
#endif

double silu(double x) { return x / (1.0 + std::exp(-x)); }

// y[c] = silu(sum_j weight[c][j] * window[c][j]), window = W-1 taps then x.
void causal_conv(std::span<const double> x, std::span<const double> taps,
                 std::span<const double> weight, std::int64_t W, std::vector<double>& y,
                 std::vector<double>& window) {
  const auto channels = static_cast<Eigen::Index>(x.size());
  y.resize(x.size());
  window.resize(x.size() * static_cast<std::size_t>(W));
  MatrixMap window_matrix(window.data(), channels, W);
  window_matrix.leftCols(W - 1) = ConstMatrixMap(taps.data(), channels, W - 1);
  window_matrix.col(W - 1) = ConstVectorMap(x.data(), channels);
  VectorMap(y.data(), channels) =
      window_matrix.cwiseProduct(ConstMatrixMap(weight.data(), channels, W)).rowwise().sum();
  for (double& value : y) value = silu(value);
}

void l2_normalise(std::vector<double>& x, double scale) {
  VectorMap vector(x.data(), static_cast<Eigen::Index>(x.size()));
  vector *= scale / std::sqrt(vector.squaredNorm() + kNormEpsilon);
}

// Pass 1: state_dot_k[v] = sum_k (decay * S[k][v]) * k[k], k ascending.
LAYOUTCHECK_VECTOR_CLONES
void decayed_state_dot_k(const double* __restrict state, const double* __restrict key,
                         double decay, std::int64_t K, std::int64_t V,
                         double* __restrict state_dot_k) {
  for (std::int64_t v = 0; v < V; ++v) state_dot_k[v] = 0.0;
  for (std::int64_t k = 0; k < K; ++k) {
    const double* __restrict row = state + k * V;
    const double key_k = key[k];
    for (std::int64_t v = 0; v < V; ++v) state_dot_k[v] += (decay * row[v]) * key_k;
  }
}

// Pass 2: S'[k][v] = decay * S[k][v] + k[k] * u[v] (stored when new_state is not null) and
// o[v] = sum_k S'[k][v] * q[k], k ascending.
LAYOUTCHECK_VECTOR_CLONES
void update_state_and_read(const double* __restrict state, const double* __restrict key,
                           const double* __restrict query, const double* __restrict update,
                           double decay, std::int64_t K, std::int64_t V,
                           double* __restrict new_state, double* __restrict out) {
  for (std::int64_t v = 0; v < V; ++v) out[v] = 0.0;
  for (std::int64_t k = 0; k < K; ++k) {
    const double* __restrict row = state + k * V;
    const double key_k = key[k];
    const double query_k = query[k];
    if (new_state) {
      double* __restrict new_row = new_state + k * V;
      for (std::int64_t v = 0; v < V; ++v) {
        const double updated = decay * row[v] + key_k * update[v];
        new_row[v] = updated;
        out[v] += updated * query_k;
      }
    } else {
      for (std::int64_t v = 0; v < V; ++v) out[v] += (decay * row[v] + key_k * update[v]) * query_k;
    }
  }
}

}  // namespace

float gdn_log_decay(float a, float A_log, float dt_bias) {
  const float x = a + dt_bias;
  const float softplus = x > 20.0f ? x : std::log1p(std::exp(x));
  return -std::exp(A_log) * softplus;
}

float gdn_beta(float b) { return 1.0f / (1.0f + std::exp(-b)); }

void compute_value_head(const GdnShape& shape, const GdnHeadInputs& inputs, GdnHeadResult& result,
                        bool want_state, const GdnHeadFaults& faults) {
  const std::int64_t K = shape.K, V = shape.V, W = shape.W;
  std::vector<double>& work = result.workspace;

  // 1. causal conv + silu over the head's channels
  causal_conv(inputs.q_x, inputs.q_taps, inputs.q_weight, W, result.q, work);
  causal_conv(inputs.k_x, inputs.k_taps, inputs.k_weight, W, result.k, work);
  causal_conv(inputs.v_x, inputs.v_taps, inputs.v_weight, W, result.v, work);

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

  // 4. delta rule: S *= exp(g); u = beta * (v - S^T k); S += k (x) u; o = S^T q
  work.resize(static_cast<std::size_t>(2 * V));
  double* state_dot_k = work.data();
  double* update = work.data() + V;
  decayed_state_dot_k(inputs.state.data(), result.k.data(), result.decay, K, V, state_dot_k);
  const double beta = result.beta;
  for (std::int64_t v = 0; v < V; ++v) update[v] = beta * (result.v[v] - state_dot_k[v]);
  result.out.resize(static_cast<std::size_t>(V));
  if (want_state) result.state.resize(static_cast<std::size_t>(K * V));
  update_state_and_read(inputs.state.data(), result.k.data(), result.q.data(), update,
                        result.decay, K, V, want_state ? result.state.data() : nullptr,
                        result.out.data());

  // 5. gated RMSNorm over V, weight used directly, times silu(z)
  VectorMap out(result.out.data(), V);
  const double inverse_rms = 1.0 / std::sqrt(out.squaredNorm() / static_cast<double>(V) + kNormEpsilon);
  for (std::int64_t v = 0; v < V; ++v)
    result.out[v] = result.out[v] * inverse_rms * inputs.norm_weight[v] * silu(inputs.z[v]);
}

}  // namespace layoutcheck
