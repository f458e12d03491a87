// Every mutant is caught, and with the right diagnosis: the fields it misreads, where it reads them
// from, or the finding a read map cannot express (routing, row stride, a numeric bug).
#include "cases/gdn/probe/mutants.h"

#include <gtest/gtest.h>

#include <string>

#include "cases/gdn/odd_shape.h"
#include "cases/gdn/probe/probe_sweep.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

const GdnShape kSquare{2, 6, 6, 6, 3};  // K == V for the transposed state

ProbeVerdict probe_mutant(MutantKind kind, const GdnShape& shape, const GdnLayouts& claimed) {
  Mutant mutant = make_mutant(kind, shape, claimed);
  const ProbeTarget target{shape, mutant.buffer, layout_of(claimed, mutant.buffer), claimed};
  return probe_gdn_runner(*mutant.kernel, target);
}

const FieldReport& field_report(const MisreadReport& report, const std::string& name) {
  for (const FieldReport& field : report.fields)
    if (field.name == name) return field;
  throw std::logic_error("no field " + name);
}

// "offsets a-b hold X in the producer, read as Y by the consumer" in some run of the report.
bool has_run(const MisreadReport& report, const std::string& producer,
             const std::string& consumer) {
  for (const MisreadRun& run : report.runs)
    if (run.producer == producer && run.consumer == consumer) return true;
  return false;
}

// What the producer holds where the kernel read `consumer_element` from.
std::string read_from(const ProbeVerdict& verdict, const Contract& producer,
                      const std::string& consumer_element) {
  const ElementRef element = producer.parse_element(consumer_element);
  const std::int64_t offset =
      verdict.read_map.offsets[static_cast<std::size_t>(producer.global_id(element))];
  for (std::size_t f = 0; f < producer.fields.size(); ++f) {
    std::string found;
    producer.fields[f].for_each_offset([&](std::int64_t linear, std::int64_t at) {
      if (at == offset) found = producer.element_name({f, linear});
    });
    if (!found.empty()) return found;
  }
  return "offset " + std::to_string(offset);
}

std::string runs_text(const MisreadReport& report) {
  std::string text;
  for (const MisreadRun& run : report.runs)
    text += "\n  " + run.producer + " read as " + run.consumer;
  return text;
}

class Mutants : public ::testing::TestWithParam<bool> {  // param: claimed layouts interleaved?
 protected:
  GdnLayouts claimed(const GdnShape& shape) const {
    return GetParam() ? interleaved_gdn_layouts(shape) : flat_gdn_layouts(shape);
  }
};

TEST_P(Mutants, QAndKSwappedMisreadsExactlyQAndK) {
  const GdnLayouts layouts = claimed(kOdd);
  const ProbeVerdict verdict = probe_mutant(MutantKind::q_k_swapped, kOdd, layouts);
  EXPECT_EQ(verdict.reads.unresolved, 0) << verdict.conclusion();
  EXPECT_EQ(field_report(verdict.reads, "Q").misread, kOdd.H * kOdd.K);
  EXPECT_EQ(field_report(verdict.reads, "K").misread, kOdd.H * kOdd.K);
  EXPECT_EQ(field_report(verdict.reads, "V").misread, 0);
  EXPECT_EQ(field_report(verdict.reads, "Z").misread, 0);
  EXPECT_EQ(read_from(verdict, layouts.qkvz, "Q[0,0]"), "K[0,0]");
  EXPECT_EQ(read_from(verdict, layouts.qkvz, "K[2,4]"), "Q[2,4]");
  if (!GetParam())
    EXPECT_TRUE(has_run(verdict.reads, "K[0:3,0:5]", "Q[0:3,0:5]")) << runs_text(verdict.reads);
  EXPECT_FALSE(verdict.agrees_with_diff);  // the contract says it reads Q where Q is
  EXPECT_FALSE(verdict.clean());
}

TEST_P(Mutants, BAndASwappedMisreadsExactlyBAndA) {
  const GdnLayouts layouts = claimed(kOdd);
  const ProbeVerdict verdict = probe_mutant(MutantKind::b_a_swapped, kOdd, layouts);
  EXPECT_EQ(verdict.reads.unresolved, 0) << verdict.conclusion();
  EXPECT_EQ(read_from(verdict, layouts.ba, "B[4]"), "A[4]");
  EXPECT_EQ(read_from(verdict, layouts.ba, "A[8]"), "B[8]");
  EXPECT_EQ(field_report(verdict.reads, "B").misread, kOdd.HV);
  EXPECT_EQ(field_report(verdict.reads, "A").misread, kOdd.HV);
  if (!GetParam())
    EXPECT_TRUE(has_run(verdict.reads, "A[0:9]", "B[0:9]")) << runs_text(verdict.reads);
  EXPECT_FALSE(verdict.agrees_with_diff);
}

TEST_P(Mutants, KeyHeadModuloIsARoutingFindingNotAMisread) {
  const ProbeVerdict verdict = probe_mutant(MutantKind::key_head_modulo, kOdd, claimed(kOdd));
  EXPECT_EQ(verdict.reads.misread, 0);
  EXPECT_EQ(verdict.reads.unresolved, 0) << verdict.conclusion();
  ASSERT_FALSE(verdict.routing.empty());
  std::int64_t wrong_heads = 0;
  for (std::int64_t hv = 0; hv < kOdd.HV; ++hv) wrong_heads += hv % kOdd.H != hv / kOdd.G();
  EXPECT_EQ(static_cast<std::int64_t>(verdict.routing.size()), wrong_heads);
  for (const RoutingFinding& finding : verdict.routing) {
    EXPECT_EQ(finding.expected_key_head, finding.value_head / kOdd.G());
    EXPECT_EQ(finding.key_heads_read, std::vector<std::int64_t>{finding.value_head % kOdd.H});
  }
  EXPECT_FALSE(verdict.clean());
}

TEST_P(Mutants, VHeadShiftedReadsEachHeadFromTheNext) {
  const GdnLayouts layouts = claimed(kOdd);
  const ProbeVerdict verdict = probe_mutant(MutantKind::v_head_shifted, kOdd, layouts);
  EXPECT_EQ(verdict.reads.unresolved, 0) << verdict.conclusion();
  EXPECT_EQ(field_report(verdict.reads, "V").misread, kOdd.HV * kOdd.V);
  EXPECT_EQ(field_report(verdict.reads, "Q").misread + field_report(verdict.reads, "K").misread +
                field_report(verdict.reads, "Z").misread,
            0);
  EXPECT_EQ(read_from(verdict, layouts.qkvz, "V[0,3]"), "V[1,3]");
  EXPECT_EQ(read_from(verdict, layouts.qkvz, "V[4,6]"), "V[5,6]");
  EXPECT_EQ(read_from(verdict, layouts.qkvz, "V[8,0]"), GetParam() ? "Z[6,0]" : "Z[0,0]");
  ASSERT_FALSE(verdict.never_read.empty());
  EXPECT_EQ(verdict.never_read.front().holds, "V[0,0:7]");
}

TEST_P(Mutants, ZFromVReadsZWhereVIsAndNeverReadsZ) {
  const GdnLayouts layouts = claimed(kOdd);
  const ProbeVerdict verdict = probe_mutant(MutantKind::z_from_v, kOdd, layouts);
  EXPECT_EQ(verdict.reads.unresolved, 0) << verdict.conclusion();
  EXPECT_EQ(field_report(verdict.reads, "Z").misread, kOdd.HV * kOdd.V);
  EXPECT_EQ(field_report(verdict.reads, "V").misread, 0);
  EXPECT_EQ(read_from(verdict, layouts.qkvz, "Z[0,0]"), "V[0,0]");
  EXPECT_EQ(read_from(verdict, layouts.qkvz, "Z[7,6]"), "V[7,6]");
  std::int64_t never_read = 0;
  for (const OffsetRun& run : verdict.never_read) {
    never_read += run.offset_end - run.offset_begin;
    EXPECT_EQ(run.holds.substr(0, 2), "Z[");
  }
  EXPECT_EQ(never_read, kOdd.HV * kOdd.V);
}

TEST_P(Mutants, TransposedStateReadsEveryOffDiagonalElementTransposed) {
  const GdnLayouts layouts = claimed(kSquare);
  const ProbeVerdict verdict = probe_mutant(MutantKind::state_transposed, kSquare, layouts);
  EXPECT_EQ(verdict.reads.unresolved, 0)
      << verdict.conclusion() << "\n"
      << (verdict.unresolved_details.empty() ? "" : verdict.unresolved_details[0]);
  const std::int64_t K = kSquare.K;
  EXPECT_EQ(verdict.reads.misread, kSquare.HV * (K * K - K));  // the diagonal reads right
  EXPECT_EQ(read_from(verdict, layouts.state, "S[0,0,1]"), "S[0,1,0]");
  EXPECT_EQ(read_from(verdict, layouts.state, "S[5,2,4]"), "S[5,4,2]");
  EXPECT_EQ(read_from(verdict, layouts.state, "S[3,2,2]"), "S[3,2,2]");
  EXPECT_FALSE(verdict.agrees_with_diff);
}

TEST_P(Mutants, ShortRowStrideIsARowFindingWithTheKernelsStride) {
  const GdnLayouts layouts = claimed(kOdd);
  const ProbeVerdict verdict = probe_mutant(MutantKind::row_stride_short, kOdd, layouts);
  ASSERT_FALSE(verdict.row_stride.empty()) << verdict.conclusion();
  EXPECT_EQ(verdict.sweep_batch, 1);  // row 0 alone is read right
  EXPECT_EQ(verdict.reads.misread, 0);
  EXPECT_EQ(verdict.reads.unresolved, 0);
  bool inferred = false;
  for (const RowStrideFinding& finding : verdict.row_stride)
    if (finding.kernel_row_stride) {
      EXPECT_EQ(*finding.kernel_row_stride, row_stride(layouts.qkvz) - 1);
      inferred = true;
    }
  EXPECT_TRUE(inferred);
  EXPECT_FALSE(verdict.clean());
}

TEST_P(Mutants, SkippedL2NormIsNoLayoutMisreadButValuesDiffer) {
  // Every buffer reads right: the conv state names the qkvz elements, the shape of the state
  // response names b, a and the state's own elements, though no value matches a prediction.
  const GdnLayouts layouts = claimed(kSquare);
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state}) {
    SCOPED_TRACE(std::string(gdn_buffer_name(buffer)));
    Mutant mutant = make_mutant(MutantKind::l2norm_skipped, kSquare, layouts);
    const ProbeVerdict verdict = probe_gdn_runner(
        *mutant.kernel, ProbeTarget{kSquare, buffer, layout_of(layouts, buffer), layouts});
    EXPECT_TRUE(verdict.layout_ok()) << verdict.conclusion();
    EXPECT_TRUE(verdict.agrees_with_diff);
    EXPECT_GT(verdict.value_deviations, 0);
    EXPECT_FALSE(verdict.values.passed) << verdict.values.detail;
    EXPECT_EQ(verdict.conclusion(), "no layout misread, values differ from the reference");
  }
}

INSTANTIATE_TEST_SUITE_P(ClaimedLayouts, Mutants, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "interleaved" : "flat"; });

TEST(Mutants, EveryKindHasAName) {
  for (MutantKind kind : all_mutant_kinds()) {
    const Mutant mutant = make_mutant(kind, kSquare, flat_gdn_layouts(kSquare));
    EXPECT_FALSE(mutant.name.empty());
    EXPECT_NE(mutant.kernel->name().find(mutant.name), std::string::npos);
  }
  EXPECT_EQ(all_mutant_kinds().size(), 8u);
}

}  // namespace
}  // namespace layoutcheck
