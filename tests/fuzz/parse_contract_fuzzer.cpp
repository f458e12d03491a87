// libFuzzer target for the contract parser and the layout checks: any byte string must end in a
// contract or in diagnostics, never in a crash, a leak, a hang, or an exception other than
// InputError. When a contract passes the checks, its promises are verified too: every offset in
// bounds of the row, and the fast offset walk (for_each_offset) equal to the per-element formula.
//
//   build/fuzz/tests/fuzz/parse_contract_fuzzer -max_total_time=30 CORPUS_DIR SEED_DIR...
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/contract.h"
#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/contract/row_map.h"

namespace {

// Element-by-element verification is O(row); keep each input fast so the fuzzer explores.
constexpr std::int64_t kVerifyLimit = std::int64_t{1} << 20;

void verify_checked_contract(const layoutcheck::Contract& contract) {
  if (contract.elements() > kVerifyLimit || contract.row_size > kVerifyLimit) return;
  for (const layoutcheck::Field& field : contract.fields) {
    field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      if (offset < 0 || offset >= contract.row_size) std::abort();  // lint missed out-of-bounds
      if (field.offset_of_linear(linear) != offset) std::abort();   // fast walk != formula
    });
  }
  const layoutcheck::RowMap map = layoutcheck::RowMap::build(contract);
  if (map.size() != contract.row_size) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    // The same cap on the checks: a 2^26-element row (a shipped grid contract among the seeds)
    // takes seconds under the fuzzer's instrumentation, and the scale is the hostile-input
    // tests' concern, not the fuzzer's.
    layoutcheck::LoadOptions options;
    options.element_cap = kVerifyLimit;
    layoutcheck::ParseResult parsed = layoutcheck::parse_contract_text(text, "fuzz.yaml", options);
    if (!parsed.contract || layoutcheck::has_errors(parsed.diagnostics)) return 0;
    const auto diagnostics = layoutcheck::check_contract(*parsed.contract);
    if (layoutcheck::has_errors(diagnostics)) return 0;
    verify_checked_contract(*parsed.contract);
  } catch (const layoutcheck::InputError&) {
    // A clear error about the input is the right outcome for bad input.
  }
  return 0;
}
