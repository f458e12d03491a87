// One value head of one GDN decode step in fp64 (design brief section 5). The whole step is this,
// once per value head; exposing it lets the probes predict a head's response to a one-hot input
// without recomputing the other heads.
//
// Value head hv reads the conv channels of its key head (q and k) and its own v channels, its z,
// b and a, its A_log and dt_bias, and its K x V state. All inputs are logical fp64 views: whoever
// builds them has already read the buffers through their contracts.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cases/gdn/shape.h"

namespace layoutcheck {

struct GdnHeadInputs {
  // Per conv channel: the current raw input x, the W-1 stored raw inputs (oldest first) and the
  // W conv weights ([channel][W], the weight of x last).
  std::span<const double> q_x, k_x, v_x;                 // [K], [K], [V]
  std::span<const double> q_taps, k_taps, v_taps;        // [K*(W-1)], [K*(W-1)], [V*(W-1)]
  std::span<const double> q_weight, k_weight, v_weight;  // [K*W], [K*W], [V*W]
  std::span<const double> z;                             // [V], not convolved
  float b = 0;                                           // beta logit
  float a = 0;                                           // decay input
  float A_log = 0;
  float dt_bias = 0;
  std::span<const double> norm_weight;  // [V], used directly
  std::span<const double> state;        // [K*V], S[k][v] row-major
  // When set, the conv + silu outputs of the head's channels, computed beforehand with
  // gdn_causal_conv (a whole row at once shares the key heads' channels among their value
  // heads); x, taps and weights are then not read.
  std::span<const double> q_conv, k_conv, v_conv;
};

// y[c] = silu(sum_j weight[c][j] * window[c][j]) over channels, window = the W-1 taps then x:
// the conv stage of compute_value_head, for callers that convolve a whole row at once.
void gdn_causal_conv(std::span<const double> x, std::span<const double> taps,
                     std::span<const double> weight, std::int64_t W, std::span<double> y);

// Departures from the reference, for the CPU models of deliberately broken kernels only.
struct GdnHeadFaults {
  bool skip_l2norm = false;  // q and k used without their l2 normalisation
};

struct GdnHeadResult {
  std::vector<double> q, k, v;  // after conv + silu; q and k l2-normalised, q scaled by K^-0.5
  float g = 0;                  // log decay, fp32
  float beta = 0;               // fp32
  double decay = 1;             // exp(g)
  std::vector<double> out;      // [V] after the gated RMSNorm
  std::vector<double> state;    // [K*V] updated state, when asked for
  std::vector<double> workspace;
};

// The state as a kernel stores it: fp32, S[k][v] at k * k_stride + v (one contiguous row per k).
// Reading and writing it directly saves the CPU models two passes over every head's state.
struct GdnStoredState {
  const float* input = nullptr;
  float* output = nullptr;  // may equal input
  std::int64_t k_stride = 0;
};

// @pre spans sized as documented for shape; result may be reused between calls (no reallocation).
// @post result.out holds the head's output; result.state the updated state when want_state.
//       The arithmetic order does not depend on where the inputs came from, so the same logical
//       inputs give bitwise-identical results under any layout.
void compute_value_head(const GdnShape& shape, const GdnHeadInputs& inputs, GdnHeadResult& result,
                        bool want_state, const GdnHeadFaults& faults = {});

// The same step with the state read from and written to fp32 storage (inputs.state is ignored):
// bitwise what compute_value_head followed by rounding the new state to fp32 gives.
void compute_value_head(const GdnShape& shape, const GdnHeadInputs& inputs,
                        const GdnStoredState& state, GdnHeadResult& result,
                        const GdnHeadFaults& faults = {});

// The fp32 gates exactly as the models compute them: g = -exp(A_log) * softplus(a + dt_bias)
// (softplus threshold 20), beta = sigmoid(b).
float gdn_log_decay(float a, float A_log, float dt_bias);
float gdn_beta(float b);

}  // namespace layoutcheck
