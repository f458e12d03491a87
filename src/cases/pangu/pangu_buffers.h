// What the Pangu cases share: their buffers are fp16 tokens, one input filled with seeded uniform
// values and one output, and a contract that does not describe them is refused the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "layoutcheck/cases/case.h"

namespace layoutcheck::pangu {

// `input` uniform in [-range, range) (seeded, the same on every library), `output` zero.
BufferSet uniform_tokens(const CaseLayouts& layouts, const std::string& input,
                         const std::string& output, std::int64_t batch, std::uint64_t seed,
                         double range);

// @post throws InputError (rule "case-layout") naming the case, the buffer and the contract.
[[noreturn]] void reject_layout(std::string_view case_name, std::string_view buffer,
                                const Contract& contract, const std::string& message,
                                const std::string& fix);

// @post throws as reject_layout unless the contract is fp16 tokens.
void require_fp16(std::string_view case_name, std::string_view buffer, const Contract& contract);

}  // namespace layoutcheck::pangu
