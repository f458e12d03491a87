// The index protocol of a gather (a window partition, an index_select): an int32 map with one
// entry per slot of the gathered buffer, >= 0 reading that token of the source grid, -1 writing
// zero. A contract that declares `gather:` (contract.h, GatherDecl) is the map's specification:
// its field's token of grid index (z, lat, lon) sits in slot offset / token width, and the slots
// of no token are its grid padding. The map is generated from the contract, never written by
// hand, and check_gather_map proves what a kernel relies on, for that map or any other (a map a
// framework precomputed), against two readings of the contract made apart: its offsets (token to
// slot, the reverse gather) and its window geometry read backwards (slot to token).
//
//   const GatherMap forward = make_gather_map(windows);   // 138240 slots over 131040 tokens
//   const std::vector<std::int32_t> back = reverse_map(forward);   // crop + un-shift
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

struct GatherMap {
  std::int64_t token_width = 0;     // elements per token (the token dim's size)
  std::int64_t tokens = 0;          // tokens of the source grid
  std::vector<std::int32_t> slots;  // per slot: the source token, or -1 (write zero)
  std::int64_t padding_slots() const;
};

// @pre contract.gather is set and the contract passed lint's layout checks.
// @post throws InputError (rule "gather") naming the declaration when the field is not a token
//       grid: a token's channels not contiguous at stride 1, slots not whole tokens, more than
//       2^31 - 1 slots or tokens.
GatherMap make_gather_map(const Contract& contract);

// A mode of the gathered grid (the token dim left out, and modes of one slot), as a slot reads
// back over them: largest slot stride first.
struct SlotMode {
  std::string name;                               // Dim::mode_name: "iw", "bw"
  std::size_t dim;                                // of the gathered field
  std::int64_t size, slot_stride, position_step;  // position_step: within its dim's padded axis
};

// @pre as make_gather_map.
// @post throws InputError (rule "gather") as make_gather_map does, and when a mode steps by part
//       of a token or the modes do not nest (one's stride within the reach of those below it), so
//       that a slot could not be read back uniquely.
std::vector<SlotMode> slot_modes(const Contract& contract);

// Slot `slot` (counted from the field's first) as a coordinate per mode of `modes`; nullopt for a
// slot between the grid's (the contract's own padding).
std::optional<std::vector<std::int64_t>> read_slot(std::span<const SlotMode> modes,
                                                   std::int64_t slot);

// Per source token, the slot holding it (the reverse gather: crop the padding, undo the shift).
// A token no slot holds maps to -1.
std::vector<std::int32_t> reverse_map(const GatherMap& map);

// What a gather kernel relies on, `slots` checked against the contract it claims to implement,
// each violation one line: one entry per slot; no entry >= the token count or < -1; every token
// in exactly one slot; as many -1 entries as padded slots less real tokens; each slot holding the
// token the window geometry puts there, so every padding slot -1 (each slot read back as window
// coordinates, un-shifted and cropped); and the reverse (the contract's offsets: pad, shift,
// partition) a bijection onto the tokens with reverse(forward(slot)) == slot and
// forward(reverse(token)) == token, forward being that geometry.
// @pre contract.gather is set and make_gather_map(contract) does not throw.
std::vector<std::string> check_gather_map(const Contract& contract,
                                          std::span<const std::int32_t> slots);

// "138240 slots of 192 elements over 131040 tokens, 7200 writing zero; every token in one slot,
// each slot where the window geometry puts it, the reverse a bijection, reverse of forward the
// identity"
std::string gather_summary(const GatherMap& map);

}  // namespace layoutcheck
