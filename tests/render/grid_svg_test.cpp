// The grid picture of a window contract: every cell of a level is the slot the gather map gives
// it (real tokens at their own coordinate, padding where the map writes zero), windows numbered
// as the gathered buffer orders them, a shifted window the same at both edges, and the refusals.
#include "layoutcheck/render/grid_svg.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"
#include "render/xml_check.h"

namespace layoutcheck {
namespace {

using ::testing::HasSubstr;
using testing::xml_problem;

struct Grid {
  std::int64_t Z, LAT, LON, C;
};

Contract windows(bool shifted, const std::optional<Grid>& grid = std::nullopt) {
  LoadOptions options;
  if (grid)
    options.overrides = {{"Z", grid->Z}, {"LAT", grid->LAT}, {"LON", grid->LON}, {"C", grid->C}};
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/" +
                           (shifted ? "windows.shifted.yaml" : "windows.yaml"),
                       options);
}

// Every level of both contracts, at the shipped size and at odd ones: each real cell holds the
// token of its own [z, lat, lon], the padding cells are the map's -1 slots, and the cells' windows
// are the map's: the slot holding the token, divided by the window's slots.
TEST(GridLevel, CellsAreTheGatherMapsSlots) {
  for (const bool shifted : {false, true}) {
    for (const Grid& size : {Grid{8, 91, 180, 4}, Grid{5, 13, 37, 2}, Grid{2, 6, 12, 1}}) {
      SCOPED_TRACE(std::string(shifted ? "shifted " : "") + std::to_string(size.Z) + "x" +
                   std::to_string(size.LAT) + "x" + std::to_string(size.LON));
      const Contract contract = windows(shifted, size);
      const GatherMap map = make_gather_map(contract);
      const std::vector<std::int32_t> back = reverse_map(map);
      std::int64_t padding = 0, cells = 0;
      for (std::int64_t z = 0; z < size.Z; ++z) {
        const GridLevel level = grid_level(contract, z);
        ASSERT_EQ(level.levels, size.Z);
        EXPECT_EQ(level.rows.name, "lat");
        EXPECT_EQ(level.columns.name, "lon");
        EXPECT_EQ(level.real_tokens(), size.LAT * size.LON);
        padding += level.padding_slots();
        cells += level.cells();
        for (std::int64_t r = 0; r < level.rows.padded; ++r) {
          for (std::int64_t c = 0; c < level.columns.padded; ++c) {
            const std::int32_t token =
                level.token[static_cast<std::size_t>(r * level.columns.padded + c)];
            const std::int64_t lat = r - level.rows.pad_before, lon = c - level.columns.pad_before;
            const bool real = lat >= 0 && lat < size.LAT && lon >= 0 && lon < size.LON;
            ASSERT_EQ(token, real ? (z * size.LAT + lat) * size.LON + lon : -1) << r << "," << c;
            if (real)
              ASSERT_EQ(level.window_or_padding(r, c),
                        back[static_cast<std::size_t>(token)] / level.window_slots);
            else
              ASSERT_EQ(level.window_or_padding(r, c), -1);
          }
        }
      }
      // A z plane of padding alone (Z = 5 padded to 6) is no level: its slots are all padding.
      const GridLevel any = grid_level(contract, 0);
      const std::int64_t padding_planes = any.level_axes.at(0).padded - size.Z;
      EXPECT_EQ(padding + padding_planes * any.cells(), map.padding_slots());
      EXPECT_EQ(cells + padding_planes * any.cells(), static_cast<std::int64_t>(map.slots.size()));
    }
  }
}

TEST(GridLevel, ShiftedWindowsWrapAroundTheEdges) {
  // No padding (12 x 24 is whole windows): the roll alone cuts the windows at the edges.
  const Grid size{4, 12, 24, 1};
  const GridLevel plain = grid_level(windows(false, size), 1);
  const GridLevel shifted = grid_level(windows(true, size), 1);
  EXPECT_EQ(shifted.rows.shift, 3);
  EXPECT_EQ(shifted.columns.shift, 6);
  for (std::int64_t r = 0; r < 12; ++r) {
    // lon 0..5 and 18..23 are one window after the roll by -6, two windows before it.
    EXPECT_EQ(shifted.window_or_padding(r, 0), shifted.window_or_padding(r, 23));
    EXPECT_NE(shifted.window_or_padding(r, 0), shifted.window_or_padding(r, 6));
    EXPECT_NE(plain.window_or_padding(r, 0), plain.window_or_padding(r, 23));
  }
  for (std::int64_t c = 0; c < 24; ++c) {
    EXPECT_EQ(shifted.window_or_padding(0, c), shifted.window_or_padding(11, c));
    EXPECT_NE(shifted.window_or_padding(0, c), shifted.window_or_padding(3, c));
  }
  EXPECT_EQ(shifted.windows, plain.windows);

  // At the shipped size lat is padded 2 + 3: the window cut by the seam holds lat 0 at the top
  // and the pad_after slots at the bottom.
  const GridLevel shipped = grid_level(windows(true), 0);
  EXPECT_EQ(shipped.window_or_padding(0, 10), -1);
  EXPECT_EQ(shipped.window_or_padding(2, 0), shipped.window_or_padding(2, 179));
  EXPECT_EQ(shipped.window[2 * 180 + 10], shipped.window[95 * 180 + 10]);
}

TEST(GridSvg, ShippedShiftedLevelIsDrawnWithItsCounts) {
  const Contract shifted = windows(true);
  const std::string svg = render_grid_svg(shifted, 0);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_TRUE(svg.starts_with("<svg "));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_LT(svg.size(), 400000u);
  const GridLevel level = grid_level(shifted, 0);
  const std::string counts = std::to_string(level.real_tokens()) + " real tokens, " +
                             std::to_string(level.padding_slots()) + " padding slots, 240 " +
                             "windows of 144";
  EXPECT_THAT(svg, HasSubstr(counts));
  EXPECT_THAT(svg, HasSubstr("16380 real tokens, 900 padding slots, 240 windows of 144"));
  EXPECT_THAT(svg, HasSubstr("pangu.windows.shifted: level z = 0 (of 8)"));
  EXPECT_THAT(svg, HasSubstr("shift: z \u22121, lat \u22123, lon \u22126"));
  EXPECT_THAT(svg, HasSubstr(">lat</text>"));
  EXPECT_THAT(svg, HasSubstr(">lon</text>"));
  EXPECT_THAT(svg, HasSubstr("url(#padding)"));
  EXPECT_THAT(svg, HasSubstr(">padding: 2 before<"));
  // Runs of one colour in a row are one rectangle: far fewer than the 17280 cells.
  std::size_t rects = 0;
  for (std::size_t at = svg.find("<rect"); at != std::string::npos; at = svg.find("<rect", at + 1))
    ++rects;
  EXPECT_LT(rects, 2500u);

  const std::string plain = render_grid_svg(windows(false), 0);
  EXPECT_EQ(xml_problem(plain), "");
  EXPECT_NE(plain, svg);
  EXPECT_THAT(plain, HasSubstr("no shift"));
  EXPECT_THAT(plain, HasSubstr("16380 real tokens, 900 padding slots, 240 windows of 144"));
}

TEST(GridSvg, OnlyGridContractsAreGridPictures) {
  const Contract row =
      load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/gdn/qwen3_5.ba.yaml");
  EXPECT_FALSE(is_grid_contract(row));
  EXPECT_TRUE(is_grid_contract(windows(true)));
  try {
    render_grid_svg(row, 0);
    FAIL() << "a contract without gather: drew a grid";
  } catch (const InputError& error) {
    EXPECT_EQ(error.diagnostics().front().rule, "render");
    EXPECT_THAT(error.diagnostics().front().message, HasSubstr("declares no gather"));
  }
  Contract not_token = windows(false);
  not_token.gather->token = "lon";
  EXPECT_FALSE(is_grid_contract(not_token));
  try {
    grid_level(not_token, 0);
    FAIL() << "a grid whose last dim is not the token dim";
  } catch (const InputError& error) {
    EXPECT_THAT(error.diagnostics().front().message, HasSubstr("not the token dim 'lon'"));
  }
}

TEST(GridSvg, LevelsOutOfRangeAndHugeGridsAreRefused) {
  const Contract shifted = windows(true);
  for (const std::int64_t level : {std::int64_t{-1}, std::int64_t{8}, std::int64_t{1} << 40}) {
    try {
      grid_level(shifted, level);
      FAIL() << "level " << level;
    } catch (const std::invalid_argument& error) {
      EXPECT_THAT(error.what(), HasSubstr("out of range"));
      EXPECT_THAT(error.what(), HasSubstr("8 levels (0 to 7)"));
    }
  }
  EXPECT_NO_THROW(grid_level(shifted, 7));
  try {
    grid_level(windows(false, Grid{2, 6, 5000, 1}), 0);
    FAIL() << "a 6 x 5004 level";
  } catch (const InputError& error) {
    EXPECT_THAT(error.diagnostics().front().message, HasSubstr("6 x 5004 cells"));
    EXPECT_THAT(error.diagnostics().front().message, HasSubstr("4096"));
  }
}

}  // namespace
}  // namespace layoutcheck
