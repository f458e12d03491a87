#include "layoutcheck/contract/gather_map.h"

#include <algorithm>
#include <limits>

namespace layoutcheck {
namespace {

[[noreturn]] void gather_error(const Contract& contract, std::string message) {
  throw InputError(Diagnostic{contract.gather ? contract.gather->where : contract.where,
                              Severity::error, "gather", std::move(message),
                              "the gathered field's last dim is one token's channels, at stride 1, "
                              "and every other dim steps by whole tokens"});
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
  std::int64_t misplaced = 0;
  field->for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    const std::int64_t t = linear / map.token_width;
    const std::int64_t c = linear % map.token_width;
    if (offset % map.token_width != c) {
      ++misplaced;
      return;
    }
    if (c == 0)
      map.slots[static_cast<std::size_t>(offset / map.token_width)] = static_cast<std::int32_t>(t);
  });
  if (misplaced > 0)
    gather_error(contract, std::to_string(misplaced) +
                               " elements do not sit at their channel within a whole-token slot");
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

std::vector<std::string> check_gather_map(std::span<const std::int32_t> slots, std::int64_t tokens,
                                          std::int64_t padding_slots) {
  std::vector<std::string> problems;
  const auto report = [&problems](std::size_t& count, const std::string& line) {
    if (count++ < kListed) problems.push_back(line);
  };
  std::size_t out_of_range = 0, twice = 0, missing = 0, round_trip = 0;
  std::vector<std::int32_t> seen_at(static_cast<std::size_t>(std::max<std::int64_t>(tokens, 0)),
                                    -1);
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
  if (zeros != padding_slots)
    problems.push_back(std::to_string(zeros) + " slots write zero, the contract pads " +
                       std::to_string(padding_slots));
  // The reverse, built as a reverse gather builds it, undoes the forward both ways.
  GatherMap forward{1, tokens, std::vector<std::int32_t>(slots.begin(), slots.end())};
  const std::vector<std::int32_t> back = reverse_map(forward);
  for (std::int64_t token = 0; token < tokens; ++token) {
    const std::int32_t slot = back[static_cast<std::size_t>(token)];
    if (slot >= 0 && slots[static_cast<std::size_t>(slot)] != token)
      report(round_trip, "the reverse of token " + std::to_string(token) + " is slot " +
                             std::to_string(slot) + ", which reads token " +
                             std::to_string(slots[static_cast<std::size_t>(slot)]));
  }
  const auto more = [&problems](std::size_t count, const char* what) {
    if (count > kListed)
      problems.push_back("... and " + std::to_string(count - kListed) + " more " + what);
  };
  more(out_of_range, "entries out of range");
  more(twice, "tokens in two slots");
  more(missing, "tokens in no slot");
  more(round_trip, "round trips that fail");
  return problems;
}

std::string gather_summary(const GatherMap& map) {
  return std::to_string(map.slots.size()) + " slots of " + std::to_string(map.token_width) +
         " elements over " + std::to_string(map.tokens) + " tokens, " +
         std::to_string(map.padding_slots()) +
         " writing zero; every token in one slot, the reverse a bijection, reverse of forward the "
         "identity";
}

}  // namespace layoutcheck
