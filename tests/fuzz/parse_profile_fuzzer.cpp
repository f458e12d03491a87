// libFuzzer target for `layoutcheck profile`'s readers (the operator table, the chrome trace and
// the JSON reader beneath it): any byte string must end in a ranked profile or an InputError,
// never in a crash, a leak, a hang or another exception. A profile that is read keeps its
// promises: every time finite and not negative, and both reports render.
//
//   build/fuzz/tests/fuzz/parse_profile_fuzzer -max_total_time=30 CORPUS_DIR SEED_DIR...
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/profile/profile.h"

namespace {

bool is_time(double us) { return std::isfinite(us) && us >= 0; }

void verify_profile(const layoutcheck::Profile& profile) {
  if (profile.operators.empty() || !is_time(profile.device_total_us)) std::abort();
  for (const layoutcheck::ProfiledOperator& op : profile.operators) {
    if (op.calls < 0 || !is_time(op.device_us) || !is_time(op.cpu_us)) std::abort();
    if (op.bytes && !(*op.bytes >= 0)) std::abort();  // NaN too
  }
  layoutcheck::ProfileOptions options;
  options.copy_bandwidth_gbps = 3000;
  options.top = 5;
  if (layoutcheck::profile_markdown(profile, options).empty()) std::abort();
  (void)layoutcheck::profile_json(profile, options).dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    verify_profile(layoutcheck::parse_profile(text, "fuzz.profile"));
  } catch (const layoutcheck::InputError&) {
    // A clear error about the input is the right outcome for bad input.
  }
  return 0;
}
