#include "cases/gdn/probe/verdict.h"

#include "cases/gdn/probe/gdn_case_verdict.h"

namespace layoutcheck {

// One wording for every case's verdict: the toolkit's.
std::string ProbeVerdict::conclusion() const {
  return gdn_case_verdict(*this).conclusion();
}

}  // namespace layoutcheck
