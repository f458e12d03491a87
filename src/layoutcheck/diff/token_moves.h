// The token side of a diff between two gathers of the same token grid (two window schemes: another
// shift, another window order, a roll on the wrong axis): which tokens the consumer looks for in
// another slot than the producer put them, grouped by how far they move. A kernel reads whole
// tokens, so this is the reviewer's unit, where the element runs of read_map.h are the offsets'.
//
//   4140 tokens move -114 slots (iz -1, ih -3, iw -6): within x[1:8, 2:46, 3:90], e.g. x[1,2,3]:
//   slot 114 in the producer, 0 in the consumer
// ("within": the group does not fill the box of grid indices that holds it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

// Tokens that move alike: by the same window coordinates, and the same number of slots.
struct TokenMoveGroup {
  std::int64_t displacement = 0;  // the consumer's slot less the producer's
  // Per mode whose coordinate differs, the consumer's less the producer's ("iw", -6); empty when
  // the slots cannot be read back as window coordinates, or when only the window order differs.
  std::vector<std::pair<std::string, std::int64_t>> mode_moves;
  bool coordinates_known = false;  // the slots were read back as window coordinates
  std::int64_t tokens = 0;
  std::vector<std::int64_t> box_begin, box_end;  // bounding box of their grid indices
  std::vector<std::int64_t> example;             // the first such token's grid index
  std::int64_t example_producer_slot = 0, example_consumer_slot = 0;
};

// At most this many groups are kept, largest first; TokenMoves::groups_total counts all.
inline constexpr std::size_t kMaxTokenGroups = 64;

struct TokenMoves {
  std::string field;
  std::vector<std::string> axes;  // the grid dims, outermost first (the token dim left out)
  std::int64_t tokens = 0;
  std::int64_t misplaced = 0;
  std::vector<TokenMoveGroup> groups;  // most tokens first, then by displacement
  std::int64_t groups_total = 0;
};

// Present when both contracts declare a gather of the same field and token dim.
// @pre both passed the layout checks and have the same fields (require_same_fields).
std::optional<TokenMoves> compare_token_slots(const Contract& producer, const Contract& consumer);

// "x[0:8, 0:46, 84:90]" (a single index where the box is one wide).
std::string token_box_text(const std::string& field, const std::vector<std::int64_t>& begin,
                           const std::vector<std::int64_t>& end);

// "4140 tokens move -114 slots (iz -1, ih -3, iw -6): within x[1:8, 2:46, 3:90], e.g. x[1,2,3]:
// slot 114 in the producer, 0 in the consumer"
std::string token_group_text(const TokenMoves& moves, const TokenMoveGroup& group);

// "iz -1, ih -3, iw -6"; "the same window coordinates" when only the window order differs; ""
// when the coordinates are not known.
std::string mode_moves_text(const TokenMoveGroup& group);

}  // namespace layoutcheck
