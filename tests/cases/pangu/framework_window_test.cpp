// The framework's window partition (pad, roll, index_select) read from the windows contract puts
// in every slot the token the int32 gather map names, at both real grids, both shifts and grids
// that need no padding or wrap the shift across it: the generic path and the native one are
// held to one specification.
#include "cases/pangu/framework_window.h"

#include <gtest/gtest.h>

#include <string>

#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck::pangu {
namespace {

TEST(FrameworkWindowPlan, PadRollIndexSelectIsTheGatherMap) {
  struct Grid {
    std::int64_t z, lat, lon;
  };
  for (const Grid grid : {Grid{8, 91, 180}, Grid{8, 46, 90}, Grid{2, 6, 12}, Grid{4, 12, 24},
                          Grid{3, 7, 13}, Grid{1, 1, 1}}) {
    for (const bool shifted : {false, true}) {
      SCOPED_TRACE(std::to_string(grid.z) + "x" + std::to_string(grid.lat) + "x" +
                   std::to_string(grid.lon) + (shifted ? " shifted" : ""));
      LoadOptions options;
      options.overrides = {{"Z", grid.z}, {"LAT", grid.lat}, {"LON", grid.lon}, {"C", 8}};
      const Contract windows = load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) +
                                                 (shifted ? "/pangu/windows.shifted.yaml"
                                                          : "/pangu/windows.yaml"),
                                             options);
      const FrameworkWindowPlan plan = framework_window_plan(windows);
      EXPECT_EQ(framework_slot_sources(plan), make_gather_map(windows).slots);
    }
  }
}

}  // namespace
}  // namespace layoutcheck::pangu
