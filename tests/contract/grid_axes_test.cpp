// Padded and shifted grid axes (Dim::pad_before, pad_after, shift) and the gather they describe:
// the shipped Pangu window contracts place every token exactly where pad + torch.roll + the
// window partition put it (written out here as the framework does it, loop by loop), the slots
// of no token are zero-filled padding, the generated map keeps the index protocol, and broken
// maps and axes are named with their line and column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "layoutcheck/check/lint.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"

namespace layoutcheck {
namespace {

using ::testing::HasSubstr;

std::string contract_path(const std::string& name) {
  return std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/" + name;
}

struct Grid {
  std::int64_t Z, LAT, LON, C;
};

Contract windows(const Grid& grid, bool shifted) {
  LoadOptions options;
  options.overrides = {{"Z", grid.Z}, {"LAT", grid.LAT}, {"LON", grid.LON}, {"C", grid.C}};
  return load_contract(contract_path(shifted ? "windows.shifted.yaml" : "windows.yaml"), options);
}

// The window partition as Pangu-Weather's PyTorch code performs it: F.pad each axis (pad // 2
// before, the rest after), torch.roll(x, shifts=-window // 2) on the padded grid for a shifted
// block, then view(Z/2, 2, LAT/6, 6, LON/12, 12).permute(lon-block, level-block, lat-block,
// iz, ih, iw). Returns per slot the grid token (row-major [z, lat, lon]) or -1.
std::vector<std::int32_t> framework_partition(const Grid& grid, bool shifted) {
  const std::int64_t window[3] = {2, 6, 12};
  const std::int64_t real[3] = {grid.Z, grid.LAT, grid.LON};
  std::int64_t padded[3], before[3], blocks[3];
  for (int a = 0; a < 3; ++a) {
    padded[a] = (real[a] + window[a] - 1) / window[a] * window[a];
    before[a] = (padded[a] - real[a]) / 2;
    blocks[a] = padded[a] / window[a];
  }
  // 1. pad: the padded grid's token at each position, -1 in the padding.
  std::vector<std::int32_t> grid_at(static_cast<std::size_t>(padded[0] * padded[1] * padded[2]),
                                    -1);
  for (std::int64_t z = 0; z < real[0]; ++z)
    for (std::int64_t h = 0; h < real[1]; ++h)
      for (std::int64_t w = 0; w < real[2]; ++w)
        grid_at[static_cast<std::size_t>(((z + before[0]) * padded[1] + h + before[1]) * padded[2] +
                                         w + before[2])] =
            static_cast<std::int32_t>((z * real[1] + h) * real[2] + w);
  // 2. roll by -window/2: out[p] = in[(p + s) mod n].
  std::vector<std::int32_t> rolled(grid_at.size());
  for (std::int64_t z = 0; z < padded[0]; ++z)
    for (std::int64_t h = 0; h < padded[1]; ++h)
      for (std::int64_t w = 0; w < padded[2]; ++w) {
        const std::int64_t s[3] = {shifted ? window[0] / 2 : 0, shifted ? window[1] / 2 : 0,
                                   shifted ? window[2] / 2 : 0};
        const std::int64_t from =
            (((z + s[0]) % padded[0]) * padded[1] + (h + s[1]) % padded[1]) * padded[2] +
            (w + s[2]) % padded[2];
        rolled[static_cast<std::size_t>((z * padded[1] + h) * padded[2] + w)] =
            grid_at[static_cast<std::size_t>(from)];
      }
  // 3. windows: (lon-block, level-block, lat-block, iz, ih, iw).
  std::vector<std::int32_t> slots;
  for (std::int64_t bw = 0; bw < blocks[2]; ++bw)
    for (std::int64_t bz = 0; bz < blocks[0]; ++bz)
      for (std::int64_t bh = 0; bh < blocks[1]; ++bh)
        for (std::int64_t iz = 0; iz < window[0]; ++iz)
          for (std::int64_t ih = 0; ih < window[1]; ++ih)
            for (std::int64_t iw = 0; iw < window[2]; ++iw)
              slots.push_back(rolled[static_cast<std::size_t>(
                  ((bz * window[0] + iz) * padded[1] + bh * window[1] + ih) * padded[2] +
                  bw * window[2] + iw)]);
  return slots;
}

class PanguWindows : public testing::TestWithParam<std::tuple<Grid, bool>> {};

TEST_P(PanguWindows, EveryTokenSitsWhereTheFrameworkPutsIt) {
  const auto [grid, shifted] = GetParam();
  const Contract contract = windows(grid, shifted);
  std::vector<Diagnostic> lint = check_contract(contract);
  std::erase_if(lint, [](const Diagnostic& d) { return d.severity == Severity::note; });
  EXPECT_TRUE(lint.empty()) << (lint.empty() ? "" : lint.front().str());
  const GatherMap map = make_gather_map(contract);
  EXPECT_EQ(map.token_width, grid.C);
  EXPECT_EQ(map.slots, framework_partition(grid, shifted));
  EXPECT_EQ(check_gather_map(contract, map.slots), std::vector<std::string>{});
  // The reverse undoes it: crop and un-shift.
  const std::vector<std::int32_t> back = reverse_map(map);
  for (std::int64_t token = 0; token < map.tokens; ++token)
    EXPECT_EQ(map.slots[static_cast<std::size_t>(back[static_cast<std::size_t>(token)])], token);
}

// Both real grids, a grid needing no padding, a single window, odd sizes that pad on every axis.
INSTANTIATE_TEST_SUITE_P(Grids, PanguWindows,
                         testing::Combine(testing::Values(Grid{8, 91, 180, 2}, Grid{8, 46, 90, 2},
                                                          Grid{4, 12, 24, 3}, Grid{2, 6, 12, 1},
                                                          Grid{3, 5, 7, 2}),
                                          testing::Bool()));

TEST(PanguWindows, TheRealGridsPadAsTheModelDoes) {
  const GatherMap level0 = make_gather_map(windows({8, 91, 180, 192}, true));
  EXPECT_EQ(level0.slots.size(), 138240u);
  EXPECT_EQ(level0.tokens, 131040);
  EXPECT_EQ(level0.padding_slots(), 7200);
  const GatherMap level1 = make_gather_map(windows({8, 46, 90, 384}, false));
  EXPECT_EQ(level1.slots.size(), 36864u);
  EXPECT_EQ(level1.tokens, 33120);
  // The padding slots are the contract's padding, zero-filled: a gather writes zero there.
  const Contract contract = windows({8, 46, 90, 4}, false);
  std::int64_t padded = 0;
  for (const Padding& region : contract.padding) {
    padded += region.size;
    EXPECT_EQ(region.fill, 0.0);
  }
  EXPECT_EQ(padded, (36864 - 33120) * 4);
}

// The modes a diff's token groups move along, over all groups.
std::set<std::string> modes_moved(const MisreadReport& report) {
  std::set<std::string> modes;
  if (report.token_moves)
    for (const TokenMoveGroup& group : report.token_moves->groups)
      for (const auto& [mode, by] : group.mode_moves) modes.insert(mode);
  return modes;
}

TEST(PanguWindows, AShiftOrARollOnTheWrongAxisMisplacesTokensTheDiffLists) {
  const Grid grid{8, 46, 90, 2};
  const MisreadReport shift = diff_contracts(windows(grid, false), windows(grid, true));
  EXPECT_EQ(shift.misread, shift.elements);  // every token moves
  // By tokens: all of them, the interior ones by the half window itself, in 27 groups (each axis
  // wraps into the window before, stays, or wraps round the grid).
  ASSERT_TRUE(shift.token_moves.has_value());
  EXPECT_EQ(shift.token_moves->misplaced, 8 * 46 * 90);
  EXPECT_EQ(shift.token_moves->groups_total, 27);
  const auto half_window =
      std::vector<std::pair<std::string, std::int64_t>>{{"iz", -1}, {"ih", -3}, {"iw", -6}};
  EXPECT_TRUE(std::any_of(shift.token_moves->groups.begin(), shift.token_moves->groups.end(),
                          [&](const TokenMoveGroup& g) { return g.mode_moves == half_window; }));
  std::int64_t grouped = 0;
  for (const TokenMoveGroup& group : shift.token_moves->groups) grouped += group.tokens;
  EXPECT_EQ(grouped, shift.token_moves->misplaced);
  // Rolled along lat only by 6 (a whole window: the wrong axis and amount) instead of lon by 6.
  LoadOptions options;
  options.overrides = {{"Z", 8}, {"LAT", 46}, {"LON", 90}, {"C", 2}};
  const Contract right = load_contract(contract_path("windows.shifted.yaml"), options);
  Contract wrong = right;
  wrong.fields[0].dims[1].shift = 6;  // lat by 6 instead of 3
  const MisreadReport report = diff_contracts(right, wrong);
  EXPECT_EQ(report.misread, report.elements);  // a roll moves every token of its axis
  ASSERT_FALSE(report.runs.empty());
  EXPECT_EQ(modes_moved(report), (std::set<std::string>{"ih", "bh"}));  // along lat only
  // Padding split on the wrong side (3 before, 2 after at lat 91 -> 96): every token one slot off.
  const Contract level0 = windows({8, 91, 180, 1}, false);
  Contract sides = level0;
  std::swap(sides.fields[0].dims[1].pad_before, sides.fields[0].dims[1].pad_after);
  const MisreadReport one_off = diff_contracts(level0, sides);
  EXPECT_EQ(one_off.misread, 8 * 91 * 180);
  EXPECT_EQ(modes_moved(one_off), (std::set<std::string>{"ih", "bh"}));
  // Another window order (level-block outermost): the window coordinates stay, the slots move.
  options.overrides = {{"LAT", 46}, {"LON", 90}, {"C", 1}};
  const MisreadReport order = diff_contracts(
      load_contract(contract_path("windows.yaml"), options),
      load_contract(std::string(LAYOUTCHECK_TEST_DATA) + "/golden/inputs/windows.level_first.yaml",
                    options));
  ASSERT_TRUE(order.token_moves.has_value());
  EXPECT_GT(order.token_moves->misplaced, 0);
  for (const TokenMoveGroup& group : order.token_moves->groups) {
    EXPECT_TRUE(group.coordinates_known);
    EXPECT_TRUE(group.mode_moves.empty()) << token_group_text(*order.token_moves, group);
  }
  // The same scheme: no token moves.
  EXPECT_EQ(diff_contracts(level0, level0).token_moves->misplaced, 0);
}

// A group's box is the group only where it fills the box; otherwise the text says it bounds it.
TEST(DiffTokens, ABoxTheGroupDoesNotFillIsSaidToHoldIt) {
  TokenMoves moves;
  moves.field = "x";
  TokenMoveGroup group;
  group.displacement = -4;
  group.tokens = 6;
  group.box_begin = {0, 1};
  group.box_end = {2, 4};
  group.example = {0, 1};
  EXPECT_EQ(token_group_text(moves, group),
            "6 tokens move -4 slots: x[0:2, 1:4], e.g. x[0,1]: slot 0 in the producer, 0 in the "
            "consumer");
  group.tokens = 5;
  EXPECT_EQ(token_group_text(moves, group),
            "5 tokens move -4 slots: within x[0:2, 1:4], e.g. x[0,1]: slot 0 in the producer, 0 "
            "in the consumer");
}

TEST(GatherMap, BrokenMapsAreNamed) {
  const Contract contract = windows({3, 5, 7, 1}, true);
  const GatherMap map = make_gather_map(contract);
  const auto problems = [&](const std::vector<std::int32_t>& broken) {
    std::string text;
    for (const std::string& line : check_gather_map(contract, broken)) text += line + "\n";
    return text;
  };
  const std::vector<std::int32_t>& slots_of = map.slots;
  const auto first_real = static_cast<std::size_t>(
      std::find_if(slots_of.begin(), slots_of.end(), [](std::int32_t t) { return t >= 0; }) -
      slots_of.begin());
  const auto first_zero =
      static_cast<std::size_t>(std::find(slots_of.begin(), slots_of.end(), -1) - slots_of.begin());
  // -1 read as token 0: token 0 twice, one zero slot short.
  std::vector<std::int32_t> broken = slots_of;
  broken[first_zero] = 0;
  EXPECT_THAT(problems(broken), HasSubstr("token 0 is in slot"));
  EXPECT_THAT(problems(broken), HasSubstr("slots write zero, the contract pads"));
  EXPECT_THAT(problems(broken),
              HasSubstr("slot " + std::to_string(first_zero) + " is padding but reads token 0"));
  broken = slots_of;
  broken[first_real] = static_cast<std::int32_t>(map.tokens);  // past the end
  EXPECT_THAT(problems(broken), HasSubstr("outside -1.." + std::to_string(map.tokens - 1)));
  EXPECT_THAT(problems(broken), HasSubstr("is in no slot"));
  broken = slots_of;
  broken[first_real] = -2;
  EXPECT_THAT(problems(broken), HasSubstr("reads token -2"));
  // A padding slot's -1 swapped with a real slot's token: every token once, the count of -1
  // right, and still wrong where it matters.
  broken = slots_of;
  std::swap(broken[first_zero], broken[first_real]);
  EXPECT_THAT(problems(broken),
              HasSubstr("slot " + std::to_string(first_zero) + " is padding but reads token " +
                        std::to_string(slots_of[first_real])));
  EXPECT_THAT(problems(broken),
              HasSubstr("slot " + std::to_string(first_real) + " holds token " +
                        std::to_string(slots_of[first_real]) + " but writes zero"));
  // A map with the roll left out (a framework's unshifted map handed to the shifted kernel).
  EXPECT_THAT(problems(make_gather_map(windows({3, 5, 7, 1}, false)).slots),
              HasSubstr("the window geometry puts token"));
  EXPECT_THAT(problems(std::vector<std::int32_t>(slots_of.begin(), slots_of.end() - 1)),
              HasSubstr("the map has " + std::to_string(slots_of.size() - 1) + " entries"));
  EXPECT_EQ(problems(slots_of), "");
}

// The map is checked against the window geometry read backwards, computed apart from the
// contract's offsets: a layout whose modes do not nest (b's stride 3 below a's reach of 4) cannot
// be read back, and says so.
TEST(GatherMap, ModesThatDoNotNestAreNamed) {
  const ParseResult parsed = parse_contract_text(
      "layoutcheck: 1\nname: t\nbuffer: t\ndtype: fp16\nrow_size: 8\n"
      "gather: {field: x, token: c}\nfields:\n  - name: x\n    dims:\n"
      "      - {name: b, size: 2, stride: 3}\n      - {name: a, size: 3, stride: 2}\n"
      "      - {name: c, size: 1, stride: 1}\n",
      "t.yaml");
  ASSERT_TRUE(parsed.contract.has_value());
  const Contract& contract = *parsed.contract;
  std::string text;
  for (const std::string& line : check_gather_map(contract, make_gather_map(contract).slots))
    text += line + "\n";
  EXPECT_THAT(text, HasSubstr("are not nested"));
}

// The gather writes every slot of the row, a token or zero: another field in the row (here one
// interleaved with the gathered one), or padding filled with other than zero, would be
// overwritten, so neither is a gather contract.
TEST(GatherMap, TheGatheredFieldOwnsItsRow) {
  const auto error = [](const std::string& rest) {
    const ParseResult parsed = parse_contract_text(
        "layoutcheck: 1\nname: t\nbuffer: t\ndtype: fp16\ngather: {field: x, token: c}\n"
        "fields:\n  - name: x\n    dims:\n"
        "      - {name: lat, size: 5, pad_before: 1, pad_after: 2, stride: 32}\n"
        "      - {name: lon, size: 7, pad_after: 1, stride: 4}\n"
        "      - {name: c, size: 2, stride: 1}\n" + rest,
        "t.yaml");
    if (!parsed.contract) return std::string("not parsed");
    try {
      make_gather_map(*parsed.contract);
    } catch (const InputError& failure) {
      return failure.diagnostics()[0].message;
    }
    return std::string();
  };
  EXPECT_EQ(error(""), "");
  EXPECT_THAT(error("  - name: y\n    offset: 2\n    dims:\n"
                    "      - {name: lat, size: 8, stride: 32}\n"
                    "      - {name: lon, size: 8, stride: 4}\n"
                    "      - {name: c, size: 2, stride: 1}\n"),
              HasSubstr("field 'y' shares the row with the gathered field 'x'"));
  EXPECT_THAT(error("row_size: 260\npadding:\n  - {name: tail, offset: 256, size: 4, fill: -1}\n"),
              HasSubstr("padding 'tail' is filled with -1, but the gather writes zero"));
  EXPECT_EQ(error("row_size: 260\npadding:\n  - {name: tail, offset: 256, size: 4}\n"), "");
}

TEST(GridAxes, BadAxesAreErrorsWithTheirPlace) {
  const auto lint = [](const std::string& dims) {
    const std::string text =
        "layoutcheck: 1\nname: t\nbuffer: t\ndtype: fp16\nfields:\n"
        "  - name: x\n    dims:\n" +
        dims;
    std::string all;
    for (const Diagnostic& d : parse_contract_text(text, "t.yaml").diagnostics)
      all += d.str() + "\n";
    return all;
  };
  // The modes split the padded axis: 5 + 1 slots, not 5.
  EXPECT_THAT(lint("      - name: a\n        size: 5\n        pad_after: 1\n        modes:\n"
                   "          - {size: 5, stride: 1}\n"),
              HasSubstr("t.yaml:9:15: error[size-mismatch]: dim 'a' of field 'x' declares size 5 "
                        "and 1 slots of padding but its modes multiply to 5 = 5"));
  EXPECT_THAT(lint("      - {name: a, size: 4, stride: 1, shift: 4}\n"),
              HasSubstr("shift of dim 'a' of field 'x' is 4, not less than its padded size 4"));
  EXPECT_THAT(lint("      - {name: a, size: 4, stride: 1, pad_before: -1}\n"),
              HasSubstr("must not be negative"));
}

}  // namespace
}  // namespace layoutcheck
