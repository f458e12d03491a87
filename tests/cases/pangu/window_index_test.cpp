// The index arithmetic the Pangu window ports compute for themselves (probes/pangu/window_index.h,
// compiled here for the host) is the windows contract's: the geometry the window ABIs pass (the
// contract's symbols, kernels/pangu/pangu_abi.h) describes the contract's own padding and roll,
// and from it every slot finds the token of the contract's generated map, every token the slot of
// its reverse map, at both real grids, both shifts and the ports' probe grids. The mutants'
// arithmetic is judged on the GPU (tests/cases/pangu/gpu/pangu_ports_test.cpp).
#include "../../../probes/pangu/window_index.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "../../../kernels/pangu/pangu_abi.h"
#include "layoutcheck/contract/gather_map.h"
#include "layoutcheck/contract/parse.h"

namespace layoutcheck {
namespace {

struct WindowGrid {
  std::int64_t Z, LAT, LON;
};

std::string grid_name(const ::testing::TestParamInfo<std::tuple<WindowGrid, bool>>& info) {
  const WindowGrid& grid = std::get<0>(info.param);
  return std::to_string(grid.Z) + "x" + std::to_string(grid.LAT) + "x" + std::to_string(grid.LON) +
         (std::get<1>(info.param) ? "_shifted" : "_plain");
}

Contract windows_contract(const WindowGrid& grid, bool shifted) {
  LoadOptions options;  // C = 2: the arithmetic is the tokens'; the channels ride along
  options.overrides = {{"Z", grid.Z}, {"LAT", grid.LAT}, {"LON", grid.LON}, {"C", 2}};
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/pangu/" +
                           (shifted ? "windows.shifted.yaml" : "windows.yaml"),
                       options);
}

// As src/cases/pangu/gpu/window_abi_binding.cpp packs it: by symbol name.
PanguWindowGeometry geometry_of(const Contract& windows) {
  const auto symbol = [&windows](const char* name) {
    const std::optional<std::int64_t> value = windows.symbol(name);
    EXPECT_TRUE(value.has_value()) << name;
    return value.value_or(0);
  };
  PanguWindowGeometry geometry{};
  const char* sizes[3] = {"Z", "LAT", "LON"};
  const char* window[3] = {"WZ", "WH", "WW"};
  const char* before[3] = {"PZ_BEFORE", "PH_BEFORE", "PW_BEFORE"};
  for (int a = 0; a < 3; ++a) {
    geometry.size[a] = symbol(sizes[a]);
    geometry.window[a] = symbol(window[a]);
    geometry.pad_before[a] = symbol(before[a]);
  }
  geometry.shift = symbol("SHIFT");
  return geometry;
}

class WindowIndex : public ::testing::TestWithParam<std::tuple<WindowGrid, bool>> {};

TEST_P(WindowIndex, TheGeometryIsTheContractsPaddingAndRoll) {
  const auto [grid, shifted] = GetParam();
  const Contract windows = windows_contract(grid, shifted);
  const port::Partition partition = port::partition<port::ContractAxes>(geometry_of(windows));
  const std::vector<Dim>& dims = windows.fields.at(0).dims;
  for (int a = 0; a < 3; ++a) {
    SCOPED_TRACE(dims[static_cast<std::size_t>(a)].name);
    const Dim& dim = dims[static_cast<std::size_t>(a)];
    EXPECT_EQ(partition.axis[a].size, dim.size());
    EXPECT_EQ(partition.axis[a].padded, dim.padded_size());
    EXPECT_EQ(partition.axis[a].pad_before, dim.pad_before);
    EXPECT_EQ(partition.axis[a].shift, dim.shift);
  }
}

TEST_P(WindowIndex, EverySlotFindsTheMapsTokenAndEveryTokenItsSlot) {
  const auto [grid, shifted] = GetParam();
  const Contract windows = windows_contract(grid, shifted);
  const GatherMap map = make_gather_map(windows);
  const port::Partition partition = port::partition<port::ContractAxes>(geometry_of(windows));
  std::int64_t wrong_slots = 0, wrong_tokens = 0;
  for (std::size_t slot = 0; slot < map.slots.size(); ++slot)
    wrong_slots += port::token_of_slot(partition, static_cast<long long>(slot)) != map.slots[slot];
  const std::vector<std::int32_t> reverse = reverse_map(map);
  for (std::size_t token = 0; token < reverse.size(); ++token)
    wrong_tokens += port::slot_of_token(partition, static_cast<long long>(token)) != reverse[token];
  EXPECT_EQ(wrong_slots, 0) << "of " << map.slots.size() << " slots";
  EXPECT_EQ(wrong_tokens, 0) << "of " << reverse.size() << " tokens";
}

// The two grid levels, the ports' probe grids (probes/pangu/*.yaml), a grid needing no padding and
// a single window.
INSTANTIATE_TEST_SUITE_P(
    Grids, WindowIndex,
    ::testing::Combine(::testing::Values(WindowGrid{8, 91, 180}, WindowGrid{8, 46, 90},
                                         WindowGrid{3, 7, 13}, WindowGrid{2, 7, 13},
                                         WindowGrid{4, 12, 24}, WindowGrid{2, 6, 12}),
                       ::testing::Bool()),
    grid_name);

}  // namespace
}  // namespace layoutcheck
