// Seeded random GDN problems, shared by the reference tests, the probes and the GPU tests.
// Logical data are drawn independently of any layout and then laid out through contracts, so the
// same logical problem can be given to kernels of different layouts.
//
// Scales keep every stage in its sensitive range: activations ~ N(0, 1), state ~ N(0, 0.5^2),
// conv weights of magnitude 0.25..0.75 with random signs (no channel is silent, so a probe of any
// input has a visible response), decays exp(g) between about 0.05 and 1, norm weights 0.5..1.5.
#pragma once

#include <cstdint>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "cases/gdn/layouts.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

// Offsets that hold no logical element are filled with NaN, so a kernel that reads them shows it.
inline constexpr bf16_bits kUnusedBf16 = 0x7fc0;

struct GdnLogicalInputs {
  GdnShape shape;
  std::int64_t batch = 1;
  std::vector<bf16_bits> q, k;        // [batch][H][K]
  std::vector<bf16_bits> v, z;        // [batch][HV][V]
  std::vector<bf16_bits> b, a;        // [batch][HV]
  std::vector<bf16_bits> conv_state;  // [batch][C][W-1]
  std::vector<float> state;           // [batch][HV][K][V]
  GdnWeights weights;
};

GdnWeights make_random_weights(const GdnShape& shape, std::uint64_t seed);
GdnLogicalInputs make_random_logical_inputs(const GdnShape& shape, std::int64_t batch,
                                            std::uint64_t seed);

// Each buffer laid out through its contract, batch rows row_stride(contract) apart.
std::vector<bf16_bits> lay_out_qkvz(const GdnLogicalInputs& logical, const Contract& qkvz);
std::vector<bf16_bits> lay_out_ba(const GdnLogicalInputs& logical, const Contract& ba);
std::vector<float> lay_out_state(const GdnLogicalInputs& logical, const Contract& state);

// @pre validate_gdn_layouts(layouts, logical.shape) passed.
GdnStepInputs lay_out(const GdnLogicalInputs& logical, const GdnLayouts& layouts);

GdnStepInputs make_random_step_inputs(const GdnShape& shape, const GdnLayouts& layouts,
                                      std::int64_t batch, std::uint64_t seed);

}  // namespace layoutcheck
