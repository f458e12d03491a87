#include "layoutcheck/contract/gather_map.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

namespace layoutcheck {
namespace {

[[noreturn]] void gather_error(const Contract& contract, std::string message,
                               std::string fix = "the gathered field's last dim is one token's "
                                                 "channels, at stride 1, and every other dim "
                                                 "steps by whole tokens") {
  throw InputError(Diagnostic{contract.gather ? contract.gather->where : contract.where,
                              Severity::error, "gather", std::move(message), std::move(fix)});
}

constexpr std::size_t kListed = 4;  // violations of one kind listed before counting the rest

}  // namespace

std::int64_t GatherMap::padding_slots() const {
  return std::count(slots.begin(), slots.end(), -1);
}

GatherMap make_gather_map(const Contract& contract) {
  if (!contract.gather) gather_error(contract, contract.name + " declares no gather");
  const Field* field = contract.find_field(contract.gather->field);
  if (field == nullptr || field->dims.empty())
    gather_error(contract, "the gathered field '" + contract.gather->field + "' does not exist");
  // The gather writes every slot of the row, a token or zero: nothing else may live there.
  for (const Field& other : contract.fields)
    if (other.name != field->name)
      gather_error(contract,
                   "field '" + other.name + "' shares the row with the gathered field '" +
                       field->name + "': the gather writes every slot (a token or zero) and "
                       "would overwrite it",
                   "give the gathered field a buffer of its own");
  for (const Padding& padding : contract.padding) {
    if (!padding.fill || *padding.fill == 0) continue;
    char fill[32];
    std::snprintf(fill, sizeof fill, "%g", *padding.fill);
    gather_error(contract,
                 "padding '" + padding.name + "' is filled with " + fill +
                     ", but the gather writes zero in every slot that holds no token",
                 "declare the padding without a fill, or with fill: 0");
  }
  const Dim& token = field->dims.back();
  if (token.transformed() || token.modes.size() != 1 || token.modes[0].stride != 1)
    gather_error(contract, "the token dim '" + token.name + "' is not contiguous at stride 1");
  GatherMap map;
  map.token_width = token.size();
  if (field->offset % map.token_width != 0 || contract.row_size % map.token_width != 0)
    gather_error(contract, "the row (" + std::to_string(contract.row_size) +
                               " elements) is not whole tokens of " +
                               std::to_string(map.token_width));
  const std::int64_t slots = contract.row_size / map.token_width;
  map.tokens = field->elements() / map.token_width;
  constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
  if (slots > kMax || map.tokens > kMax)
    gather_error(contract, "more than 2^31 - 1 slots or tokens: the map is int32");
  map.slots.assign(static_cast<std::size_t>(slots), -1);
  // Element (token t, channel 0) is the start of t's slot; every channel must follow it.
  std::int64_t misplaced = 0, outside = 0, shared = 0;
  field->for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    const std::int64_t t = linear / map.token_width;
    const std::int64_t c = linear % map.token_width;
    if (offset < 0 || offset >= contract.row_size) {
      ++outside;
      return;
    }
    if (offset % map.token_width != c) {
      ++misplaced;
      return;
    }
    if (c != 0) return;
    std::int32_t& slot = map.slots[static_cast<std::size_t>(offset / map.token_width)];
    if (slot >= 0) ++shared;
    slot = static_cast<std::int32_t>(t);
  });
  if (outside > 0)
    gather_error(contract, std::to_string(outside) + " elements lie outside the row of " +
                               std::to_string(contract.row_size));
  if (misplaced > 0)
    gather_error(contract, std::to_string(misplaced) +
                               " elements do not sit at their channel within a whole-token slot");
  // Aliasing a field may declare, but a slot is written once: it cannot hold two tokens.
  if (shared > 0)
    gather_error(contract,
                 std::to_string(shared) + " tokens land in a slot another token already holds",
                 "give each token a slot of its own: no grid mode of the gathered field at "
                 "stride 0");
  return map;
}

std::vector<std::int32_t> reverse_map(const GatherMap& map) {
  std::vector<std::int32_t> back(static_cast<std::size_t>(map.tokens), -1);
  for (std::size_t slot = 0; slot < map.slots.size(); ++slot) {
    const std::int32_t token = map.slots[slot];
    if (token >= 0 && token < map.tokens && back[static_cast<std::size_t>(token)] < 0)
      back[static_cast<std::size_t>(token)] = static_cast<std::int32_t>(slot);
  }
  return back;
}

std::vector<SlotMode> slot_modes(const Contract& contract) {
  const GatherMap shape = make_gather_map(contract);  // the field checked a token grid
  const Field& field = *contract.find_field(contract.gather->field);
  const std::int64_t token_width = shape.token_width;
  std::vector<SlotMode> modes;
  for (std::size_t d = 0; d + 1 < field.dims.size(); ++d) {
    const Dim& dim = field.dims[d];
    std::int64_t step = 1;
    for (std::size_t m = 0; m < dim.modes.size(); step *= dim.modes[m].size, ++m) {
      // Strides are positive here: negative ones are parse errors, and a stride-0 mode of more
      // than one index puts two tokens in a slot (make_gather_map). read_slot divides by them.
      if (dim.modes[m].size == 1) continue;  // reads back as 0 at any stride
      if (dim.modes[m].stride % token_width != 0)
        gather_error(contract, "mode " + dim.mode_name(m) + " steps by " +
                                   std::to_string(dim.modes[m].stride) +
                                   " elements, not whole tokens");
      modes.push_back(
          {dim.mode_name(m), d, dim.modes[m].size, dim.modes[m].stride / token_width, step});
    }
  }
  std::stable_sort(modes.begin(), modes.end(), [](const SlotMode& a, const SlotMode& b) {
    return a.slot_stride > b.slot_stride;
  });
  // Nested: below each mode, the ones under it reach less than its stride, so reading a slot
  // from the largest stride down is unique.
  for (std::size_t m = 0; m + 1 < modes.size(); ++m) {
    std::int64_t reach = 0;
    for (std::size_t k = m + 1; k < modes.size(); ++k)
      reach += (modes[k].size - 1) * modes[k].slot_stride;
    if (modes[m].slot_stride <= reach)
      gather_error(contract, "the grid's modes are not nested (" + modes[m].name + " steps by " +
                                 std::to_string(modes[m].slot_stride) +
                                 " slots, the modes below it reach " + std::to_string(reach) +
                                 "), so a slot cannot be read back as window coordinates");
  }
  return modes;
}

std::optional<std::vector<std::int64_t>> read_slot(std::span<const SlotMode> modes,
                                                   std::int64_t slot) {
  if (slot < 0) return std::nullopt;
  std::vector<std::int64_t> coordinates(modes.size());
  for (std::size_t m = 0; m < modes.size(); ++m) {
    coordinates[m] = slot / modes[m].slot_stride;
    if (coordinates[m] >= modes[m].size) return std::nullopt;
    slot -= coordinates[m] * modes[m].slot_stride;
  }
  if (slot != 0) return std::nullopt;
  return coordinates;
}

namespace {

// Per slot, the token the window geometry puts there, or -1: the slot read back as the grid
// modes' coordinates, each dim's padded position un-shifted and cropped (Dim::index_at), the
// token the row-major index of the result. The inverse of the contract's offsets, computed apart
// from them so the two can check each other.
std::vector<std::int32_t> slots_by_geometry(const Contract& contract, std::size_t slots) {
  const std::vector<SlotMode> modes = slot_modes(contract);
  const Field& field = *contract.find_field(contract.gather->field);
  const std::int64_t first = field.offset / field.dims.back().size();
  const std::size_t grid_dims = field.dims.size() - 1;
  std::vector<std::int32_t> tokens(slots, -1);
  std::vector<std::int64_t> position(grid_dims);
  for (std::size_t slot = 0; slot < slots; ++slot) {
    const auto coordinates = read_slot(modes, static_cast<std::int64_t>(slot) - first);
    if (!coordinates) continue;  // between the grid's slots: contract padding
    std::fill(position.begin(), position.end(), 0);
    for (std::size_t m = 0; m < modes.size(); ++m)
      position[modes[m].dim] += (*coordinates)[m] * modes[m].position_step;
    std::int64_t token = 0;
    bool real = true;
    for (std::size_t d = 0; d < grid_dims && real; ++d) {
      const std::optional<std::int64_t> index = field.dims[d].index_at(position[d]);
      real = index.has_value();
      if (real) token = token * field.dims[d].size() + *index;
    }
    if (real) tokens[slot] = static_cast<std::int32_t>(token);
  }
  return tokens;
}

}  // namespace

std::vector<std::string> check_gather_map(const Contract& contract,
                                          std::span<const std::int32_t> slots) {
  const GatherMap expected = make_gather_map(contract);
  const std::int64_t tokens = expected.tokens;
  std::vector<std::string> problems;
  if (slots.size() != expected.slots.size()) {
    problems.push_back("the map has " + std::to_string(slots.size()) + " entries, the contract " +
                       std::to_string(expected.slots.size()) + " slots");
    return problems;
  }
  const auto report = [&problems](std::size_t& count, const std::string& line) {
    if (count++ < kListed) problems.push_back(line);
  };
  std::size_t out_of_range = 0, twice = 0, missing = 0, misplaced = 0, round_trip = 0;
  std::vector<std::int32_t> seen_at(static_cast<std::size_t>(tokens), -1);
  std::int64_t zeros = 0;
  for (std::size_t slot = 0; slot < slots.size(); ++slot) {
    const std::int32_t token = slots[slot];
    if (token == -1) {
      ++zeros;
    } else if (token < -1 || token >= tokens) {
      report(out_of_range, "slot " + std::to_string(slot) + " reads token " +
                               std::to_string(token) + ", outside -1.." +
                               std::to_string(tokens - 1));
    } else if (seen_at[static_cast<std::size_t>(token)] >= 0) {
      report(twice, "token " + std::to_string(token) + " is in slot " +
                        std::to_string(seen_at[static_cast<std::size_t>(token)]) + " and slot " +
                        std::to_string(slot));
    } else {
      seen_at[static_cast<std::size_t>(token)] = static_cast<std::int32_t>(slot);
    }
  }
  for (std::int64_t token = 0; token < tokens; ++token)
    if (seen_at[static_cast<std::size_t>(token)] < 0)
      report(missing, "token " + std::to_string(token) + " is in no slot");
  const std::int64_t padding = static_cast<std::int64_t>(slots.size()) - tokens;
  if (zeros != padding)
    problems.push_back(std::to_string(zeros) + " slots write zero, the contract pads " +
                       std::to_string(padding));
  // Forward: the window geometry read backwards. Reverse: the contract's offsets.
  const Field& field = *contract.find_field(contract.gather->field);
  std::vector<std::int32_t> forward;
  try {
    forward = slots_by_geometry(contract, slots.size());
  } catch (const InputError& unreadable) {
    for (const Diagnostic& diagnostic : unreadable.diagnostics())
      problems.push_back(diagnostic.message);
    return problems;
  }
  for (std::size_t slot = 0; slot < slots.size(); ++slot) {
    const std::int32_t want = forward[slot], got = slots[slot];
    if (got == want || got < -1 || got >= tokens) continue;
    const std::string where = "slot " + std::to_string(slot);
    report(misplaced,
           want < 0  ? where + " is padding but reads token " + std::to_string(got)
           : got < 0 ? where + " holds token " + std::to_string(want) + " but writes zero"
                     : where + " reads token " + std::to_string(got) +
                           ", the window geometry puts token " + std::to_string(want) + " there");
  }
  std::vector<std::int32_t> reverse(static_cast<std::size_t>(tokens), -1);
  field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    if (linear % expected.token_width == 0)
      reverse[static_cast<std::size_t>(linear / expected.token_width)] =
          static_cast<std::int32_t>(offset / expected.token_width);
  });
  for (std::int64_t token = 0; token < tokens; ++token) {
    const std::int32_t slot = reverse[static_cast<std::size_t>(token)];
    if (slot < 0 || forward[static_cast<std::size_t>(slot)] != token)
      report(round_trip,
             "token " + std::to_string(token) + " is placed in slot " + std::to_string(slot) +
                 ", which the window geometry reads back as " +
                 (slot < 0 ? std::string("nothing")
                           : "token " + std::to_string(forward[static_cast<std::size_t>(slot)])));
  }
  for (std::size_t slot = 0; slot < forward.size(); ++slot) {
    const std::int32_t token = forward[slot];
    if (token >= 0 && reverse[static_cast<std::size_t>(token)] != static_cast<std::int32_t>(slot))
      report(round_trip, "slot " + std::to_string(slot) + " reads back as token " +
                             std::to_string(token) + ", which the contract places in slot " +
                             std::to_string(reverse[static_cast<std::size_t>(token)]));
  }
  const auto more = [&problems](std::size_t count, const char* what) {
    if (count > kListed)
      problems.push_back("... and " + std::to_string(count - kListed) + " more " + what);
  };
  more(out_of_range, "entries out of range");
  more(twice, "tokens in two slots");
  more(missing, "tokens in no slot");
  more(misplaced, "slots not where the window geometry puts them");
  more(round_trip, "round trips that fail");
  return problems;
}

std::string gather_summary(const GatherMap& map) {
  return std::to_string(map.slots.size()) + " slots of " + std::to_string(map.token_width) +
         " elements over " + std::to_string(map.tokens) + " tokens, " +
         std::to_string(map.padding_slots()) +
         " writing zero; every token in one slot, each slot where the window geometry puts it, the "
         "reverse a bijection, reverse of forward the identity";
}

}  // namespace layoutcheck
