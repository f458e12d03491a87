// The recurrent update and readout of a GDN decode step alone (its port ABI, gdn_recurrent_v1, is
// still to come): what most
// public GDN kernels implement (FLA's fused_recurrent_gated_delta_rule at T = 1), checked without
// conv or norm glue. Per token and value head hv (key head h = hv / G), in fp64:
//   S *= exp(g[hv]);  u = beta[hv] * (v[hv] - S^T k[h]);  S += k[h] (x) u;  o[hv] = S^T q[h] *
//   K^-0.5
// q and k arrive l2-normalised, g is the log decay and beta the gate, both fp32; the state is fp32
// and laid out by its contract ([HV,K,V] or [HV,V,K]), o is bf16.
#pragma once

#include <memory>

#include "layoutcheck/cases/case.h"

namespace layoutcheck {

std::shared_ptr<const Case> make_gdn_recurrent_case();

}  // namespace layoutcheck
