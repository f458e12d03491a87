#include "layoutcheck/diff/token_moves.h"

#include <algorithm>
#include <map>

#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/join.h"

namespace layoutcheck {

std::optional<TokenMoves> compare_token_slots(const Contract& producer, const Contract& consumer) {
  if (!producer.gather || !consumer.gather || producer.gather->field != consumer.gather->field ||
      producer.gather->token != consumer.gather->token)
    return std::nullopt;
  const std::vector<std::int32_t> from = reverse_map(make_gather_map(producer));
  const std::vector<std::int32_t> to = reverse_map(make_gather_map(consumer));
  const Field& field = *producer.find_field(producer.gather->field);
  TokenMoves moves;
  moves.field = field.name;
  std::vector<std::int64_t> shape;
  for (std::size_t d = 0; d + 1 < field.dims.size(); ++d) {
    moves.axes.push_back(field.dims[d].name);
    shape.push_back(field.dims[d].size());
  }
  moves.tokens = static_cast<std::int64_t>(from.size());
  // Each side's slots read back as its own window coordinates, compared mode by mode (by name).
  std::vector<SlotMode> producer_modes, consumer_modes;
  bool readable = true;
  try {
    producer_modes = slot_modes(producer);
    consumer_modes = slot_modes(consumer);
  } catch (const InputError&) {
    readable = false;  // grouped by slots alone
  }
  std::vector<std::string> names;
  for (const auto* side : {&consumer_modes, &producer_modes})
    for (const SlotMode& mode : *side)
      if (std::find(names.begin(), names.end(), mode.name) == names.end())
        names.push_back(mode.name);
  const auto coordinates = [&](const std::vector<SlotMode>& modes, const Contract& contract,
                               std::int64_t slot) {
    std::vector<std::int64_t> by_name(names.size(), 0);
    const Field& own = *contract.find_field(contract.gather->field);
    const auto read = read_slot(modes, slot - own.offset / own.dims.back().size());
    if (!read) return std::optional<std::vector<std::int64_t>>();
    for (std::size_t m = 0; m < modes.size(); ++m)
      by_name[static_cast<std::size_t>(std::find(names.begin(), names.end(), modes[m].name) -
                                       names.begin())] = (*read)[m];
    return std::optional(by_name);
  };
  using Key = std::pair<std::vector<std::int64_t>, std::int64_t>;  // mode moves, slots
  std::map<Key, TokenMoveGroup> by_move;
  std::vector<std::int64_t> index(shape.size(), 0);  // the token's grid index, kept in step
  for (std::size_t token = 0; token < from.size() && token < to.size(); ++token) {
    if (token > 0)
      for (std::size_t d = shape.size(); d-- > 0;) {
        if (++index[d] < shape[d]) break;
        index[d] = 0;
      }
    if (from[token] == to[token]) continue;
    ++moves.misplaced;
    const std::int64_t displacement = std::int64_t{to[token]} - from[token];
    Key key{{}, displacement};
    std::optional<std::vector<std::int64_t>> was, now;
    if (readable) {
      was = coordinates(producer_modes, producer, from[token]);
      now = coordinates(consumer_modes, consumer, to[token]);
    }
    if (was && now)
      for (std::size_t m = 0; m < names.size(); ++m) key.first.push_back((*now)[m] - (*was)[m]);
    auto [at, fresh] = by_move.try_emplace(key);
    TokenMoveGroup& group = at->second;
    if (fresh) {
      group.displacement = displacement;
      group.coordinates_known = was && now;
      for (std::size_t m = 0; m < key.first.size(); ++m)
        if (key.first[m] != 0) group.mode_moves.emplace_back(names[m], key.first[m]);
      group.box_begin = index;
      group.box_end = index;
      group.example = index;
      group.example_producer_slot = from[token];
      group.example_consumer_slot = to[token];
    }
    ++group.tokens;
    for (std::size_t d = 0; d < index.size(); ++d) {
      group.box_begin[d] = std::min(group.box_begin[d], index[d]);
      group.box_end[d] = std::max(group.box_end[d], index[d]);
    }
  }
  for (auto& [key, group] : by_move) {
    for (std::int64_t& end : group.box_end) ++end;  // exclusive
    moves.groups.push_back(std::move(group));
  }
  moves.groups_total = static_cast<std::int64_t>(moves.groups.size());
  std::stable_sort(
      moves.groups.begin(), moves.groups.end(),
      [](const TokenMoveGroup& a, const TokenMoveGroup& b) { return a.tokens > b.tokens; });
  if (moves.groups.size() > kMaxTokenGroups) moves.groups.resize(kMaxTokenGroups);
  return moves;
}

std::string token_box_text(const std::string& field, const std::vector<std::int64_t>& begin,
                           const std::vector<std::int64_t>& end) {
  std::vector<std::string> parts;
  for (std::size_t d = 0; d < begin.size(); ++d)
    parts.push_back(end[d] - begin[d] == 1
                        ? std::to_string(begin[d])
                        : std::to_string(begin[d]) + ":" + std::to_string(end[d]));
  return field + "[" + join(parts) + "]";
}

std::string token_group_text(const TokenMoves& moves, const TokenMoveGroup& group) {
  std::vector<std::string> example;
  for (std::int64_t i : group.example) example.push_back(std::to_string(i));
  const std::int64_t slots = group.displacement < 0 ? -group.displacement : group.displacement;
  const std::string how = mode_moves_text(group);
  // The box is the group itself only where the group fills it; else it bounds the group.
  std::int64_t box_tokens = 1;
  for (std::size_t d = 0; d < group.box_begin.size(); ++d)
    box_tokens *= group.box_end[d] - group.box_begin[d];
  return std::to_string(group.tokens) + (group.tokens == 1 ? " token moves " : " tokens move ") +
         (group.displacement < 0 ? "-" : "+") + std::to_string(slots) +
         (slots == 1 ? " slot" : " slots") + (how.empty() ? "" : " (" + how + ")") + ": " +
         (box_tokens == group.tokens ? "" : "within ") +
         token_box_text(moves.field, group.box_begin, group.box_end) + ", e.g. " + moves.field +
         "[" + join(example, ",") + "]: slot " + std::to_string(group.example_producer_slot) +
         " in the producer, " + std::to_string(group.example_consumer_slot) + " in the consumer";
}

}  // namespace layoutcheck

namespace layoutcheck {

std::string mode_moves_text(const TokenMoveGroup& group) {
  if (!group.coordinates_known) return "";
  if (group.mode_moves.empty()) return "the same window coordinates";
  std::vector<std::string> parts;
  for (const auto& [mode, by] : group.mode_moves)
    parts.push_back(mode + (by < 0 ? " -" : " +") + std::to_string(by < 0 ? -by : by));
  return join(parts);
}

}  // namespace layoutcheck
