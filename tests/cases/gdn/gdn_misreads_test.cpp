#include "cases/gdn/bench/gdn_misreads.h"

#include <gtest/gtest.h>

#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

TEST(GdnMisreads, SameLayoutsMisreadNothing) {
  const GdnShape shape;
  const ProbeGate gate = static_gdn_misreads(flat_gdn_layouts(shape), flat_gdn_layouts(shape));
  EXPECT_EQ(gate.source, "static diff");
  EXPECT_EQ(gate.elements, shape.qkvz_elements() + shape.ba_elements());
  EXPECT_EQ(gate.misread, 0);
}

// Flat fed to an interleaved reader: only elements whose offsets happen to coincide are read
// right (the first key head's q, for one); more than nine in ten are misread.
TEST(GdnMisreads, UpstreamFedFlatMisreadsAlmostEverything) {
  const GdnShape shape;
  const ProbeGate gate =
      static_gdn_misreads(flat_gdn_layouts(shape), interleaved_gdn_layouts(shape));
  EXPECT_EQ(gate.elements, 16480);
  EXPECT_GT(gate.misread, 15000);
  EXPECT_LT(gate.misread, gate.elements);
  const Validity validity =
      evaluate_gates(GateRecord{{}, std::nullopt, std::nullopt, gate, {}}, GateThresholds{});
  EXPECT_EQ(validity.reasons.front(),
            "static diff: " + std::to_string(gate.misread) + " of 16480 elements misread");
}

}  // namespace
}  // namespace layoutcheck
