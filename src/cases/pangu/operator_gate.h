// Pangu's merge gates (gate_report.h), what nothing merges without:
//   operator gate  every call of operator_gate_inputs(): valid shapes (both grids, the article's
//                  [1,32760,384], [1,33120,768]), boundary ones (1, 3, 5 and 131041 rows, batch
//                  2, a grid needing no padding, a single window, the shift wrapping across the
//                  padding, constant rows, mean 1000 with spread 0.01 (and with fp16's finest
//                  spread there, 0.5), mean 12 with spread 0.01, ±65504, subnormals, inf and
//                  NaN, the gather at 96 and 520 channels) run on the kernels against the
//                  references; illegal ones (LayerNorm widths 191, 256, 96, a gather of 191
//                  channels, fp32 and bf16, int64 or out-of-range maps, a map not whole windows or
//                  breaking the index protocol, mismatched residual shapes, rows not contiguous)
//                  refused before any launch;
//   model gate     the Pangu-lite block stack, native against generic channel by channel: the
//                  CPU model at two small grids here, the real grids on the GPU;
//   end-to-end     time and device memory of that stack, native against generic (GPU only).
// The host half (pangu_host_gates) runs the CPU model gate, sees each illegal call refused by
// check_pangu_call and leaves a "not run" placeholder for every check only a GPU makes (an illegal
// call's too: that nothing reaches the device is seen there); the GPU half
// (cases/pangu/gpu/operator_gate_gpu.h) replaces them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cases/pangu/operator_call.h"
#include "layoutcheck/cases/gate_report.h"
#include "layoutcheck/platform/fp16.h"

namespace layoutcheck::pangu {

// large_mean is "mean 1000, spread 0.01", which fp16 holds as a constant row (its step
// at 1000 is 0.5); large_mean_finest and small_spread are the rows on which one-pass statistics
// would really fail: mean 1000 with fp16's finest spread there, and mean 12 with spread 0.01.
enum class GateValues {
  random,
  constant,
  large_mean,
  large_mean_finest,
  small_spread,
  extremes,
  subnormal,
  non_finite
};

struct OperatorGateInput {
  std::string kind;         // "valid", "boundary", "illegal"
  std::string description;  // "a single window", "width 191"
  PanguCall call;
  GateValues values = GateValues::random;
  std::string refusal;  // illegal: words the refusal must contain

  std::string subject() const;  // "layernorm fp16 [1,131040,191]: width 191"
};

std::vector<OperatorGateInput> operator_gate_inputs(const std::string& contracts_folder);

// One call from `layoutcheck gate --case pangu --call KEY=VALUE ...`: operator= (layernorm,
// add-layernorm, gather, reverse, layernorm-gather); rows operators: shape=B,N,C; gathers:
// grid=Z,LAT,LON width=C [shifted=1] [batch=B]; any: dtype=fp32 (every tensor), map_dtype=i64,
// map_entry=I:V (repeatable), map_length=N (the map and the rows it writes, cut or grown by -1).
// @post throws InputError (rule "usage") on a key or value it does not know.
OperatorGateInput pangu_call_input(const std::vector<std::string>& call,
                                   const std::string& contracts_folder);

// A call's input tensors' values (seeded, by the input's pattern) and the references' outputs.
std::vector<std::vector<fp16_bits>> gate_input_values(const OperatorGateInput& input);
std::vector<std::vector<fp16_bits>> gate_reference_outputs(
    const OperatorGateInput& input, const std::vector<std::vector<fp16_bits>>& values);
// Outputs against the references: LayerNorms within 2 fp16 ulp, the residual and every gather
// bitwise; NaN wherever the reference has NaN, whatever its payload.
GateCheck compare_gate_outputs(const OperatorGateInput& input,
                               const std::vector<std::vector<fp16_bits>>& got,
                               const std::vector<std::vector<fp16_bits>>& want);

// The block stack's grids: the model gate's small one on the host, the real ones on a GPU.
struct StackGrid {
  std::int64_t z, lat, lon, channels, heads;
  std::string text() const;  // "Pangu-lite, 2 blocks, [1,131040,192]"
};
inline constexpr std::int64_t kGateStackBlocks = 2;
std::vector<StackGrid> real_stack_grids();

std::vector<GateCheck> pangu_host_gates(const GateRequest& request);

// Registers "pangu" in the gate registry (its host half).
void register_pangu_gates();

}  // namespace layoutcheck::pangu
