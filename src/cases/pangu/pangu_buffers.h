// What the Pangu cases share: their buffers are fp16 tokens, inputs filled with seeded uniform
// values, outputs zero, and a contract that does not describe them is refused the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/cases/case.h"

namespace layoutcheck::pangu {

// Each of `inputs` uniform in [-range, range) (seeded, the same on every library), in order from
// one generator; each of `outputs` zero.
BufferSet uniform_tokens(const CaseLayouts& layouts, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, std::int64_t batch,
                         std::uint64_t seed, double range);

// The buffer a Pangu contract describes: a contract that declares a gather describes the tokens
// window by window ("windows"), whatever its `buffer:` key says of the tokens it gathers.
std::string window_buffer_of(const Contract& contract);

// @post throws InputError (rule "case-layout") naming the case, the buffer and the contract.
[[noreturn]] void reject_layout(std::string_view case_name, std::string_view buffer,
                                const Contract& contract, const std::string& message,
                                const std::string& fix);

// @post throws as reject_layout unless the contract is fp16 tokens.
void require_fp16(std::string_view case_name, std::string_view buffer, const Contract& contract);

// @post throws as reject_layout unless the contract is one row of channels at stride 1, as every
//       LayerNorm reads a token.
void require_contiguous_row(std::string_view case_name, std::string_view buffer,
                            const Contract& contract);

// @post throws as reject_layout unless the contract is one field of [z, lat, lon, c]; the tokens
//       window by window (`windows`) declare their gather, so the index map is generated and
//       proven.
void require_token_grid(std::string_view case_name, std::string_view buffer,
                        const Contract& contract, bool windows);

}  // namespace layoutcheck::pangu
