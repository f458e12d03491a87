// The three contract-laid-out buffers of a GDN decode step, and the checks that a set of contracts
// can describe them. Everything that reads GDN inputs through contracts (the reference, the CPU
// models of kernels, the probes) takes a GdnLayouts, so the same code reads any layout.
//
// Field names and logical shapes every GDN contract must have (contracts/gdn/*.yaml):
//   qkvz:  Q[H,K]  K[H,K]  V[HV,V]  Z[HV,V]        (bf16)
//   ba:    B[HV]   A[HV]                           (bf16)
//   state: S[HV,K,V]                               (fp32; physical order is the contract's)
#pragma once

#include <cstdint>
#include <string_view>

#include "layoutcheck/contract/contract.h"
#include "cases/gdn/shape.h"

namespace layoutcheck {

struct GdnLayouts {
  Contract qkvz;
  Contract ba;
  Contract state;
};

// Which of the three buffers; "state" is the contracts' buffer "ssm_state".
enum class GdnBuffer { qkvz, ba, state };

std::string_view gdn_buffer_name(GdnBuffer buffer);  // "qkvz", "ba", "state"
// Accepts "qkvz", "ba", "state" and the contracts' "ssm_state"; throws InputError (rule "usage").
GdnBuffer gdn_buffer_from_name(std::string_view name);

const Contract& layout_of(const GdnLayouts& layouts, GdnBuffer buffer);
Contract& layout_of(GdnLayouts& layouts, GdnBuffer buffer);

// The shape a contract's symbols describe (H, HV, K, V where declared; the rest from defaults).
GdnShape gdn_shape_from_symbols(const Contract& contract, GdnShape defaults = {});

// @post throws InputError (rule "gdn-layout") naming the contract, field and what differs when
//       a contract lacks a GDN field, has one of another logical shape, or the wrong dtype.
void validate_gdn_layout(const Contract& contract, GdnBuffer buffer, const GdnShape& shape);
void validate_gdn_layouts(const GdnLayouts& layouts, const GdnShape& shape);

}  // namespace layoutcheck
