// The GDN layouts of contracts/gdn/*.yaml built in code for any shape: tests, benchmarks and the
// probe command (for the buffers it does not probe) need them without reading files. They must
// stay offset-for-offset equal to the YAML files (tests/cases/gdn/standard_layouts_test.cpp checks).
#pragma once

#include "layoutcheck/contract/contract.h"
#include "cases/gdn/layouts.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

// qwen3_5.qkvz: [Q all | K all | V all | Z all]
Contract flat_qkvz_contract(const GdnShape& shape);
// qwen3_next.qkvz: per key head h a group [q(K) k(K) v(G*V) z(G*V)], hv = h*G + r
Contract interleaved_qkvz_contract(const GdnShape& shape);
// qwen3_5.ba: [B all | A all]
Contract flat_ba_contract(const GdnShape& shape);
// qwen3_next.ba: per key head h a group [b(G) a(G)]
Contract interleaved_ba_contract(const GdnShape& shape);

enum class StateOrder { hkv, hvk };
// gdn.state.hkv ([HV,K,V], v innermost) or gdn.state.hvk ([HV,V,K], k innermost)
Contract state_contract(const GdnShape& shape, StateOrder order);

// Qwen3.5 (flat qkvz and ba) and Qwen3-Next (interleaved), with the given state order.
GdnLayouts flat_gdn_layouts(const GdnShape& shape, StateOrder order = StateOrder::hkv);
GdnLayouts interleaved_gdn_layouts(const GdnShape& shape, StateOrder order = StateOrder::hkv);

}  // namespace layoutcheck
