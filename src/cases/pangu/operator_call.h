// One call of a Pangu operator as a framework's custom op receives it: the tensors' dtypes and
// shapes, whether their rows are contiguous, and for the gathers the index map. check_pangu_call
// is what every entry point (the GPU entry, cases/pangu/gpu/pangu_entry.h; the operator gate)
// runs before anything is launched: the kernels take fp16 rows of 192, 384 or 768 channels and
// an int32 map that the index protocol allows, and anything else is an error naming the
// argument, never a silent generic path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck::pangu {

enum class PanguOperator { layer_norm, add_layer_norm, window_gather, window_reverse, layer_norm_gather };

std::string operator_name(PanguOperator op);  // "layernorm", "add-layernorm", "gather", ...
std::optional<PanguOperator> operator_from_name(std::string_view name);
// The tensors a call passes, in order: layernorm {x, out}; add-layernorm {residual, branch,
// residual_out, out}; gather and layernorm-gather {x, windows}; reverse {windows, x}.
std::vector<std::string> operator_tensors(PanguOperator op);

struct TensorSpec {
  DType dtype = DType::fp16;
  std::vector<std::int64_t> shape;  // [batch, rows, channels]
  bool contiguous = true;           // rows one after another, channels at stride 1
  std::string text() const;         // "fp16 [1,131040,192]"
};

struct PanguCall {
  PanguOperator op = PanguOperator::layer_norm;
  std::vector<TensorSpec> tensors;  // in operator_tensors(op)'s order
  // The gathers' map: per slot of the windows the token it reads or -1 (gather), per token the
  // slot it comes from (reverse). Stored wide, so an int64 map's values are seen as given.
  DType map_dtype = DType::i32;
  std::vector<std::int64_t> map;
  std::int64_t window_volume = 0;  // tokens per window
};

// @post throws InputError (rule "operator-input") naming the operator, the argument, what is
//       wrong and what the kernels take, when the call is not one the kernels are built for.
void check_pangu_call(const PanguCall& call);

}  // namespace layoutcheck::pangu
