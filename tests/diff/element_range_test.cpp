// Names of element ranges: boxes where the range is one, its two ends otherwise.
#include "layoutcheck/diff/element_range.h"

#include <gtest/gtest.h>

namespace layoutcheck {
namespace {

Field field_of_shape(std::string name, std::vector<std::int64_t> shape) {
  Field field;
  field.name = std::move(name);
  std::int64_t stride = 1;
  for (auto it = shape.rbegin(); it != shape.rend(); ++it) {
    field.dims.insert(field.dims.begin(), Dim{"d", {Mode{"", *it, stride, {}}}, {}});
    stride *= *it;
  }
  return field;
}

TEST(ElementRange, BoxesOverWholeInnerDims) {
  const Field k = field_of_shape("K", {16, 128});
  EXPECT_EQ(element_range_name(k, 0, 127), "K[0,0:128]");
  EXPECT_EQ(element_range_name(k, 128, 255), "K[1,0:128]");
  EXPECT_EQ(element_range_name(k, 0, 3 * 128 - 1), "K[0:3,0:128]");
  EXPECT_EQ(element_range_name(k, 0, 16 * 128 - 1), "K[0:16,0:128]");
  EXPECT_EQ(element_range_name(k, 130, 139), "K[1,2:12]");
  EXPECT_EQ(element_range_name(k, 5, 5), "K[0,5]");
}

TEST(ElementRange, OneAndThreeDims) {
  const Field b = field_of_shape("B", {48});
  EXPECT_EQ(element_range_name(b, 0, 2), "B[0:3]");
  EXPECT_EQ(element_range_name(b, 7, 7), "B[7]");
  const Field s = field_of_shape("S", {4, 3, 5});
  EXPECT_EQ(element_range_name(s, 15, 29), "S[1,0:3,0:5]");
  EXPECT_EQ(element_range_name(s, 15, 24), "S[1,0:2,0:5]");
  EXPECT_EQ(element_range_name(s, 15, 44), "S[1:3,0:3,0:5]");
  EXPECT_EQ(element_range_name(s, 20, 22), "S[1,1,0:3]");
}

TEST(ElementRange, NonBoxesGiveTheirEnds) {
  const Field v = field_of_shape("V", {48, 128});
  EXPECT_EQ(element_range_name(v, 2 * 128 + 5, 4 * 128 + 9), "V[2,5]..V[4,9]");
  EXPECT_EQ(element_range_name(v, 100, 200), "V[0,100]..V[1,72]");
  EXPECT_EQ(element_range_name(v, 0, 128), "V[0,0]..V[1,0]");
  const Field s = field_of_shape("S", {4, 3, 5});
  EXPECT_EQ(element_range_name(s, 15, 27), "S[1,0,0]..S[1,2,2]");
}

}  // namespace
}  // namespace layoutcheck
