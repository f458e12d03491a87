// The shapes of a state response that name an input without predicting values.
#include "cases/gdn/probe/state_change_shape.h"

#include <gtest/gtest.h>

#include <vector>

namespace layoutcheck {
namespace {

constexpr std::int64_t K = 4, V = 3;

std::vector<double> outer(const std::vector<double>& column, const std::vector<double>& row) {
  std::vector<double> delta;
  for (double c : column)
    for (double r : row) delta.push_back(c * r);
  return delta;
}

TEST(StateChangeShape, DecayMovesEveryRowUniformly) {
  EXPECT_EQ(classify_state_change(outer({1, -2, 3, 0.5}, {1, 1, 1}), K, V, 1e-9),
            StateChange::decay_like);
  // written transposed: every column uniform instead
  EXPECT_EQ(classify_state_change(outer({1, 1, 1, 1}, {2, -1, 4}), K, V, 1e-9),
            StateChange::decay_like);
}

TEST(StateChangeShape, BetaMovesARankOneUpdate) {
  EXPECT_EQ(classify_state_change(outer({1, -2, 3, 0.5}, {0.3, -1, 2}), K, V, 1e-9),
            StateChange::update_like);
}

TEST(StateChangeShape, BothOrNothingIsNotNamed) {
  std::vector<double> both = outer({1, -2, 3, 0.5}, {0.3, -1, 2});
  const std::vector<double> decay = outer({2, 1, -1, 3}, {1, 1, 1});
  for (std::size_t i = 0; i < both.size(); ++i) both[i] += decay[i];
  EXPECT_FALSE(classify_state_change(both, K, V, 1e-9));
  EXPECT_FALSE(classify_state_change(std::vector<double>(K * V, 0.0), K, V, 1e-9));
}

TEST(StateChangeShape, FindsTheOneLineAChangeSitsOn) {
  std::vector<double> delta(K * V, 0.0);
  delta[1 * V + 2] = 1;
  delta[3 * V + 2] = -0.5;
  auto line = single_changed_line(delta, K, V);
  ASSERT_TRUE(line);
  EXPECT_TRUE(line->column);
  EXPECT_EQ(line->index, 2);
  delta[3 * V + 2] = 0;
  delta[1 * V + 0] = 0.25;
  line = single_changed_line(delta, K, V);
  ASSERT_TRUE(line);
  EXPECT_FALSE(line->column);
  EXPECT_EQ(line->index, 1);
  delta[0] = 1;
  EXPECT_FALSE(single_changed_line(delta, K, V));
}

}  // namespace
}  // namespace layoutcheck
