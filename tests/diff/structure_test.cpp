// The structural summary: each kind of change is named from the modes of the two layouts, on the
// shipped pairs and on small contracts built for one change each; the law "same exactly when every
// element sits at the same offset" is checked against the element-by-element diff.
#include "layoutcheck/diff/structure.h"

#include <gtest/gtest.h>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"

namespace layoutcheck {
namespace {

Contract shipped(const std::string& relative, const LoadOptions& options = {}) {
  return load_contract(std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/" + relative, options);
}

// A one-field contract built in code (the structure needs no lint): dims outermost first, each
// a list of (name, size, stride) modes, fastest first.
using ModeList = std::vector<Mode>;
Contract one_field(const std::vector<std::pair<std::string, ModeList>>& dims,
                   std::int64_t offset = 0) {
  Contract contract;
  contract.name = "t";
  contract.row_size = 64;
  Field field;
  field.name = "X";
  field.offset = offset;
  for (const auto& [name, modes] : dims) field.dims.push_back(Dim{name, modes});
  contract.fields.push_back(field);
  return contract;
}

Mode mode(std::string name, std::int64_t size, std::int64_t stride) {
  return Mode{std::move(name), size, stride};
}

FieldStructure only_field(const Contract& producer, const Contract& consumer) {
  const StructuralSummary summary = compare_structure(producer, consumer);
  EXPECT_EQ(summary.fields.size(), 1u);
  return summary.fields.at(0);
}

TEST(Structure, GdnQkvzIsGroupMajorAgainstInterleavedPerKeyHead) {
  const Contract flat = shipped("gdn/qwen3_5.qkvz.yaml"),
                 next = shipped("gdn/qwen3_next.qkvz.yaml");
  const StructuralSummary forward = compare_structure(flat, next);
  EXPECT_EQ(forward.buffer,
            "group-major -> interleaved: the producer keeps each of Q, K, V, Z whole, the "
            "consumer interleaves them per h (16 groups of 1024 offsets)");
  ASSERT_EQ(forward.fields.size(), 4u);
  const FieldStructure& v = forward.fields[2];
  EXPECT_EQ(v.field, "V");
  EXPECT_EQ(v.producer_layout, "(48,128):(128,1)");
  EXPECT_EQ(v.consumer_layout, "((3,16),128):((128,1024),1)");
  EXPECT_EQ(v.producer_offset, 4096);
  EXPECT_EQ(v.consumer_offset, 256);
  EXPECT_EQ(v.kind, LayoutChange::interleave);
  EXPECT_EQ(v.changes,
            (std::vector<std::string>{"offset 4096 -> 256", "hv (48):(128) -> (3,16):(128,1024)"}));
  EXPECT_EQ(forward.fields[1].changes,
            (std::vector<std::string>{"offset 2048 -> 128", "h stride 128 -> 1024"}));

  const StructuralSummary back = compare_structure(next, flat);
  EXPECT_TRUE(
      back.buffer.starts_with("interleaved -> group-major: the producer interleaves Q, "
                              "K, V, Z per h (16 groups of 1024 offsets)"));
  EXPECT_EQ(back.fields[0].classification, "interleaved per h -> group-major");
  // At Qwen3-Next-80B's heads the groups are smaller, and the same reading holds.
  LoadOptions hv32;
  hv32.overrides = {{"HV", 32}};
  const StructuralSummary small = compare_structure(shipped("gdn/qwen3_5.qkvz.yaml", hv32),
                                                    shipped("gdn/qwen3_next.qkvz.yaml", hv32));
  EXPECT_NE(small.buffer.find("per h (16 groups of 768 offsets)"), std::string::npos)
      << small.buffer;
}

TEST(Structure, TransposesAreModePermutations) {
  const FieldStructure state =
      only_field(shipped("gdn/state.hkv.yaml"), shipped("gdn/state.hvk.yaml"));
  EXPECT_EQ(state.kind, LayoutChange::mode_permutation);
  EXPECT_EQ(state.classification,
            "mode permutation, k and v swap places (hv,k,v -> hv,v,k, slowest first)");

  const FieldStructure cos = only_field(shipped("examples/rope_cos.half_split.yaml"),
                                        shipped("examples/rope_cos.interleaved.yaml"));
  EXPECT_EQ(cos.producer_layout, "(64,2):(1,64)");
  EXPECT_EQ(cos.consumer_layout, "(64,2):(2,1)");
  EXPECT_EQ(cos.kind, LayoutChange::mode_permutation);
  EXPECT_EQ(cos.changes, (std::vector<std::string>{"p stride 1 -> 2", "c stride 64 -> 1"}));

  const StructuralSummary kv = compare_structure(shipped("examples/kv_cache.nhd.yaml"),
                                                 shipped("examples/kv_cache.hnd.yaml"));
  EXPECT_EQ(kv.buffer, "");  // both keep K and V whole: a change within each field
  for (const FieldStructure& field : kv.fields) {
    EXPECT_EQ(field.kind, LayoutChange::mode_permutation);
    EXPECT_NE(field.classification.find("t and h swap places (t,h,d -> h,t,d"), std::string::npos);
  }
  // Three modes in a cycle are not a swap: the orders are named, not a pair.
  const FieldStructure cycle = only_field(
      one_field({{"a", {mode("", 2, 8)}}, {"b", {mode("", 2, 4)}}, {"c", {mode("", 4, 1)}}}),
      one_field({{"a", {mode("", 2, 2)}}, {"b", {mode("", 2, 1)}}, {"c", {mode("", 4, 4)}}}));
  EXPECT_EQ(cycle.kind, LayoutChange::mode_permutation);
  EXPECT_EQ(cycle.classification, "mode permutation (a,b,c -> c,a,b, slowest first)");
}

TEST(Structure, OffsetShiftStrideChangeSplitMergeAndSame) {
  const Contract base = one_field({{"i", {mode("", 8, 1)}}});
  const FieldStructure shifted = only_field(base, one_field({{"i", {mode("", 8, 1)}}}, 8));
  EXPECT_EQ(shifted.kind, LayoutChange::offset_shift);
  EXPECT_EQ(shifted.classification, "offset shift, the field moved by +8");
  EXPECT_EQ(shifted.changes, std::vector<std::string>{"offset 0 -> 8"});

  const FieldStructure strided = only_field(base, one_field({{"i", {mode("", 8, 2)}}}));
  EXPECT_EQ(strided.kind, LayoutChange::stride_change);
  EXPECT_EQ(strided.classification, "stride change");
  EXPECT_EQ(strided.changes, std::vector<std::string>{"i stride 1 -> 2"});

  const Contract split = one_field({{"i", {mode("q", 4, 1), mode("r", 2, 8)}}});
  const FieldStructure splitting = only_field(base, split);
  EXPECT_EQ(splitting.kind, LayoutChange::dim_split);
  EXPECT_EQ(splitting.classification, "split of i into q,r");
  EXPECT_EQ(splitting.changes, std::vector<std::string>{"i (8):(1) -> (4,2):(1,8)"});
  const FieldStructure merging = only_field(split, base);
  EXPECT_EQ(merging.kind, LayoutChange::dim_merge);
  EXPECT_EQ(merging.classification, "merge of i's modes q,r into one");

  // The same offsets written as two modes that coalesce: nothing moved.
  const Contract written_apart = one_field({{"i", {mode("r", 2, 1), mode("q", 4, 2)}}});
  const FieldStructure same = only_field(base, written_apart);
  EXPECT_EQ(same.kind, LayoutChange::same);
  EXPECT_EQ(same.classification, "same offsets, written differently");
  EXPECT_EQ(only_field(base, base).classification, "");
  EXPECT_TRUE(compare_structure(base, base).all_same());
}

// kind == same exactly when the element-by-element diff finds nothing misread, on every shipped
// pair of one buffer and each contract against itself.
TEST(Structure, SameExactlyWhenNothingIsMisread) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"gdn/qwen3_5.qkvz.yaml", "gdn/qwen3_next.qkvz.yaml"},
      {"gdn/qwen3_5.ba.yaml", "gdn/qwen3_next.ba.yaml"},
      {"gdn/state.hkv.yaml", "gdn/state.hvk.yaml"},
      {"rope/half_split.x.yaml", "rope/interleaved.x.yaml"},
      {"rope/half_split.x.yaml", "rope/half_split_padded.x.yaml"},
      {"examples/rope_cos.half_split.yaml", "examples/rope_cos.interleaved.yaml"},
      {"examples/kv_cache.nhd.yaml", "examples/kv_cache.hnd.yaml"}};
  for (const auto& [first, second] : pairs)
    for (const auto& [p, c] :
         {std::pair{first, second}, std::pair{second, first}, std::pair{first, first}}) {
      SCOPED_TRACE(p + " -> " + c);
      const MisreadReport report = diff_contracts(shipped(p), shipped(c));
      ASSERT_TRUE(report.structure.has_value());
      for (std::size_t f = 0; f < report.fields.size(); ++f)
        EXPECT_EQ(report.structure->fields[f].kind == LayoutChange::same,
                  report.fields[f].misread == 0)
            << report.fields[f].name;
    }
}

TEST(Structure, ChangeNamesAreStable) {
  EXPECT_EQ(layout_change_name(LayoutChange::mode_permutation), "mode-permutation");
  EXPECT_EQ(layout_change_name(LayoutChange::interleave), "interleave");
  EXPECT_EQ(layout_change_name(LayoutChange::unclassified), "unclassified");
}

}  // namespace
}  // namespace layoutcheck
