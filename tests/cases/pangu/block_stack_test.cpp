// The Pangu-lite block stack on the CPU, the model gate's CI half: at small grids (padding on
// every axis, the shift wrapping across it) the native and the generic decomposition give the
// same output, and the gate fails by name when the native path follows a faulty window scheme or
// the output's channels are permuted.
#include "cases/pangu/block_stack.h"

#include <gtest/gtest.h>

#include <string>

#include "cases/pangu/block_stack_cpu.h"
#include "cases/pangu/model_gate.h"
#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck::pangu {
namespace {

BlockStack small_stack(std::int64_t z, std::int64_t lat, std::int64_t lon) {
  return make_block_stack(alternating_windows(LAYOUTCHECK_CONTRACTS_DIR, z, lat, lon, 192, 2), 6,
                          21);
}

TEST(BlockStack, NativeAndGenericPathsAgreeChannelByChannel) {
  struct Grid {
    std::int64_t z, lat, lon;
  };
  // Padding on every axis; no padding at all; a single window.
  for (const Grid grid : {Grid{3, 9, 14}, Grid{2, 6, 24}, Grid{2, 6, 12}}) {
    SCOPED_TRACE(std::to_string(grid.z) + "x" + std::to_string(grid.lat) + "x" +
                 std::to_string(grid.lon));
    const BlockStack stack = small_stack(grid.z, grid.lat, grid.lon);
    const std::vector<fp16_bits> input = stack_input(stack, 5);
    const auto native = run_cpu_block_stack(stack, StackPath::native, input);
    const auto generic = run_cpu_block_stack(stack, StackPath::generic, input);
    ASSERT_EQ(native.size(), input.size());
    EXPECT_NE(native, input) << "the stack changed nothing";
    const ChannelComparison gate = compare_channels(native, generic, stack.channels);
    EXPECT_TRUE(gate.passed()) << gate.summary();
    // The CPU model's two decompositions share every reference: they agree bitwise.
    EXPECT_EQ(native, generic);
  }
}

TEST(BlockStack, GateCatchesANativePathWithAFaultyWindowScheme) {
  const BlockStack stack = small_stack(3, 9, 14);
  const std::vector<fp16_bits> input = stack_input(stack, 5);
  const auto generic = run_cpu_block_stack(stack, StackPath::generic, input);
  for (const WindowFault fault : {WindowFault::shift_on_wrong_axes, WindowFault::padding_wrong_side}) {
    const auto native = run_cpu_block_stack(stack, StackPath::native, input, fault);
    const ChannelComparison gate = compare_channels(native, generic, stack.channels);
    EXPECT_FALSE(gate.passed()) << gate.summary();
    EXPECT_GT(gate.worst, 0.05);
    ASSERT_FALSE(gate.findings().empty());
    EXPECT_NE(gate.findings()[0].find("rel L2"), std::string::npos) << gate.findings()[0];
  }
}

TEST(BlockStack, GateNamesPermutedChannels) {
  const BlockStack stack = small_stack(2, 6, 12);
  const std::vector<fp16_bits> input = stack_input(stack, 5);
  const auto generic = run_cpu_block_stack(stack, StackPath::generic, input);
  auto swapped = run_cpu_block_stack(stack, StackPath::native, input);
  for (std::int64_t t = 0; t < stack.tokens; ++t)
    std::swap(swapped[static_cast<std::size_t>(t * 192 + 3)],
              swapped[static_cast<std::size_t>(t * 192 + 4)]);
  const ChannelComparison gate = compare_channels(swapped, generic, stack.channels);
  EXPECT_FALSE(gate.passed());
  ASSERT_EQ(gate.misordered.size(), 2u) << gate.summary();
  EXPECT_EQ(gate.misordered[0], (std::pair<std::int64_t, std::int64_t>{3, 4}));
  EXPECT_NE(gate.summary().find("2 channels out of order"), std::string::npos) << gate.summary();
}

TEST(BlockStack, GateOverNoTokensIsNoPass) {
  const ChannelComparison gate = compare_channels({}, {}, 192);
  EXPECT_EQ(gate.tokens, 0);
  EXPECT_FALSE(gate.passed()) << gate.summary();
}

TEST(BlockStack, RefusesWindowsOfDifferentGridsAndHeadsThatDoNotDivide) {
  std::vector<Contract> windows = alternating_windows(LAYOUTCHECK_CONTRACTS_DIR, 2, 6, 12, 192, 1);
  const std::vector<Contract> other = alternating_windows(LAYOUTCHECK_CONTRACTS_DIR, 2, 6, 24, 192, 1);
  windows.push_back(other[0]);
  EXPECT_THROW(make_block_stack(windows, 6, 1), InputError);
  EXPECT_THROW(make_block_stack({other[0]}, 5, 1), InputError);
}

}  // namespace
}  // namespace layoutcheck::pangu
