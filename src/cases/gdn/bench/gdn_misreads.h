// The misread count of a GDN path from the static diff: what a kernel built for the consumer's
// qkvz and ba layouts misreads when fed the producer's buffers. The probes recover the same count
// from a running kernel (design §6: they must agree); the bench prints whichever ran, named.
#pragma once

#include "layoutcheck/bench/gates.h"
#include "cases/gdn/layouts.h"

namespace layoutcheck {

// Elements and misreads summed over qkvz and ba. Source "static diff".
// @pre both layouts passed validate_gdn_layouts for the same shape.
ProbeGate static_gdn_misreads(const GdnLayouts& producer, const GdnLayouts& consumer);

}  // namespace layoutcheck
