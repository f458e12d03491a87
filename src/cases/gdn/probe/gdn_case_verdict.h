// The GDN decoder's verdict in the toolkit's one verdict model (probe/case_verdict.h), so that it
// is rendered, as text and JSON, exactly as every other case's: GDN's own evidence becomes
// findings (routing, never-read, row-stride, unresolved, values) and JSON details (the lanes).
//
//   probe (gdn, gdn): cpu model of a kernel built for qwen3_next.qkvz ... fed qwen3_5.qkvz (...)
//     the kernel reads K[0,0:128] from offsets 128-255, which hold Q[1,0:128]
//   verdict: layout misread: 15488 of 16384 elements, exactly the static diff's set
#pragma once

#include "cases/gdn/probe/verdict.h"
#include "layoutcheck/probe/case_verdict.h"

namespace layoutcheck {

CaseVerdict gdn_case_verdict(const ProbeVerdict& verdict);

}  // namespace layoutcheck
