// The structural side of a diff: per field, the producer's and the consumer's layout in the
// hierarchical shape:stride notation side by side, the offset and strides that differ, and what
// kind of change that is, read off the modes themselves (never off field or dim names).
//
//   X  (64,2):(1,64) at 0  vs  (64,2):(2,1) at 0
//      mode permutation, p and c swap places (c,p -> p,c, slowest first): p stride 1 -> 2, ...
//
// A reviewer reads this first; the element runs of diff.h say where each misread lands.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

enum class LayoutChange {
  same,              // every element at the same offset (perhaps written differently)
  offset_shift,      // the same modes, the whole field moved
  stride_change,     // the same modes, some strides differ and no permutation explains it
  mode_permutation,  // both fill the same contiguous range, their modes ordered differently
  dim_split,         // a dim of one mode in the producer is several modes in the consumer
  dim_merge,         // the reverse
  interleave,        // group-major <-> interleaved per group (see StructuralSummary::buffer)
  unclassified,      // differs in a way none of the above describes
};

// "same", "offset-shift", "stride-change", "mode-permutation", "dim-split", "dim-merge",
// "interleave", "unclassified": the stable names of the JSON output.
std::string_view layout_change_name(LayoutChange change);

struct FieldStructure {
  std::string field;
  std::string producer_layout;  // Field::layout_string(), e.g. "((3,16),128):((128,1024),1)"
  std::string consumer_layout;
  std::int64_t producer_offset = 0;
  std::int64_t consumer_offset = 0;
  // What differs, one item each: "offset 2048 -> 128", "h stride 128 -> 1024",
  // "hv (48):(128) -> (3,16):(128,1024)" (a dim split into other modes).
  std::vector<std::string> changes;
  LayoutChange kind = LayoutChange::same;
  // One line naming the change when one fits ("mode permutation, p and c swap places (c,p ->
  // p,c, slowest first)"); "" for unclassified and same.
  std::string classification;
};

struct StructuralSummary {
  // A change of the whole buffer, when one fits: "group-major -> interleaved: the producer keeps
  // each of Q, K, V, Z whole, the consumer interleaves them per h (16 groups of 1024 offsets)".
  std::string buffer;
  std::vector<FieldStructure> fields;  // in the consumer's field order

  bool all_same() const;
};

// @pre the contracts have the same fields with the same shapes (require_same_fields).
// @post one FieldStructure per consumer field the producer also has; kind == same exactly when the field's offset
//       function is the same on both sides (compared on the coalesced modes).
StructuralSummary compare_structure(const Contract& producer, const Contract& consumer);

}  // namespace layoutcheck
