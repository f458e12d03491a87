// What the rope case asks of its contracts: x and out hold one field X[h: H, p: P, c: 2] (element
// c of rotated pair p of head h, wherever the layout puts it), cos_sin holds COS[p: P] and
// SIN[p: P]. The pairing (half-split or interleaved) is the contract's business, never assumed.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "layoutcheck/cases/case.h"
#include "layoutcheck/contract/contract.h"

namespace layoutcheck::rope {

struct RopeShape {
  std::int64_t heads = 0;  // H
  std::int64_t pairs = 0;  // P = D / 2
};

// @post throws InputError (rule "case-layout") naming the buffer, contract and what differs.
void validate_rope_layout(std::string_view buffer, const Contract& contract);

// The shape the x, cos_sin and out contracts of `layouts` share.
// @post throws InputError (rule "case-layout") when one is missing, invalid, or they disagree.
RopeShape rope_shape_of(const CaseLayouts& layouts);

// Row offsets of X[h, p, c], indexed (h*P + p)*2 + c (the logical row-major order).
// @pre validate_rope_layout passed for `contract` as x or out.
std::vector<std::int64_t> pair_offsets(const Contract& contract);

}  // namespace layoutcheck::rope
