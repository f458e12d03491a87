// compare_reads on small hand-made contracts: what the producer holds where the consumer reads
// (elements, padding, gaps, nothing at all), probe markers, incompatible contracts, and rows of
// 10^7 elements.
#include "layoutcheck/diff/read_map.h"

#include <gtest/gtest.h>

#include "gdn_layouts.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"

namespace layoutcheck {
namespace {

Dim dim(std::string name, std::int64_t size, std::int64_t stride) {
  return Dim{std::move(name), {Mode{"", size, stride, {}}}, {}};
}
Field field(std::string name, std::int64_t offset, std::vector<Dim> dims) {
  Field f;
  f.name = std::move(name);
  f.offset = offset;
  f.dims = std::move(dims);
  return f;
}
Contract contract(std::string name, std::int64_t row_size, std::vector<Field> fields) {
  Contract c;
  c.name = std::move(name);
  c.buffer = "buf";
  c.row_size = row_size;
  c.fields = std::move(fields);
  return c;
}

std::string incompatible_message(const Contract& producer, const Contract& consumer) {
  try {
    diff_contracts(producer, consumer);
  } catch (const InputError& error) {
    EXPECT_EQ(error.diagnostics().size(), 1u);
    EXPECT_EQ(error.diagnostics()[0].rule, "incompatible");
    return error.diagnostics()[0].message;
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

TEST(RequireSameFields, SaysExactlyWhatDiffers) {
  const testing::GdnSizes s;
  const Contract qkvz = testing::load_shipped("qwen3_5.qkvz", s);
  EXPECT_EQ(incompatible_message(qkvz, testing::load_shipped("qwen3_next.ba", s)),
            "cannot compare qwen3_5.qkvz (producer) and qwen3_next.ba (consumer): buffer: "
            "producer 'qkvz', consumer 'ba'; fields missing in the consumer: Q, K, V, Z; fields "
            "only in the consumer: B, A");
  EXPECT_EQ(
      incompatible_message(qkvz, testing::load_shipped("qwen3_next.qkvz", {16, 32, 128, 128})),
      "cannot compare qwen3_5.qkvz (producer) and qwen3_next.qkvz (consumer): field V: "
      "producer [48,128], consumer [32,128]; field Z: producer [48,128], consumer [32,128]");
  Contract fp32 = qkvz;
  fp32.dtype = DType::fp32;
  EXPECT_EQ(incompatible_message(qkvz, fp32),
            "cannot compare qwen3_5.qkvz (producer) and qwen3_5.qkvz (consumer): dtype: producer "
            "bf16, consumer fp32");
  Contract renamed = qkvz;
  renamed.fields[3].name = "G";
  renamed.fields[1].dims.push_back(dim("x", 1, 0));
  EXPECT_EQ(incompatible_message(qkvz, renamed),
            "cannot compare qwen3_5.qkvz (producer) and qwen3_5.qkvz (consumer): fields missing "
            "in the consumer: Z; fields only in the consumer: G; field K: producer [16,128], "
            "consumer [16,128,1]");
}

TEST(CompareReads, DifferentBuffersCannotBeCompared) {
  const Contract a = contract("a", 4, {field("X", 0, {dim("i", 4, 1)})});
  Contract b = contract("b", 4, {field("X", 0, {dim("i", 4, 1)})});
  b.buffer = "other";
  EXPECT_EQ(incompatible_message(a, b),
            "cannot compare a (producer) and b (consumer): buffer: producer 'buf', consumer "
            "'other'");
}

// One row agreeing says nothing about the next: a kernel stepping rows by another stride reads
// every row after the first from the wrong place.
TEST(CompareReads, RowsSteppedByAnotherStrideAreAFinding) {
  const Contract one_row = contract("p", 4, {field("X", 0, {dim("i", 4, 1)})});
  Contract written = one_row, read = one_row;
  written.rows = {RowDim{"token", 8, {}}};
  read.rows = {RowDim{"token", 4, {}}};
  const MisreadReport report = diff_contracts(written, read);
  EXPECT_EQ(report.misread, 0);
  ASSERT_EQ(report.row_mismatches.size(), 1u);
  EXPECT_EQ(report.row_mismatches[0],
            "row dim 'token': producer stride 8, consumer stride 4 elements: every row after the "
            "first is read from the wrong place");
  EXPECT_TRUE(report.has_findings());
  EXPECT_FALSE(diff_contracts(written, written).has_findings());

  Contract batched = read;  // another number of row dims
  batched.rows = {RowDim{"batch", 16, {}}, RowDim{"token", 8, {}}};
  const MisreadReport nested = diff_contracts(written, batched);
  ASSERT_EQ(nested.row_mismatches.size(), 1u);
  EXPECT_EQ(nested.row_mismatches[0],
            "row dims: producer token (stride 8), consumer batch (stride 16), token (stride 8): "
            "rows after the first are not where the consumer reads them");

  Contract renamed = written;  // same stride, another name: worth saying, not a misread
  renamed.rows[0].name = "batch";
  const MisreadReport names = diff_contracts(written, renamed);
  EXPECT_FALSE(names.has_findings());
  ASSERT_EQ(names.notes.size(), 1u);
  EXPECT_EQ(names.notes[0], "row dim 0 is 'token' in the producer, 'batch' in the consumer");

  const MisreadReport single = diff_contracts(written, one_row);  // one row: nothing to compare
  EXPECT_FALSE(single.has_findings());
  ASSERT_EQ(single.notes.size(), 1u);
  EXPECT_EQ(single.notes[0], "the consumer declares no row dims, so row strides are not compared");
}

TEST(CompareReads, PaddingIsNamedWithItsRange) {
  const std::string header = "layoutcheck: 1\nbuffer: buf\ndtype: bf16\nrow_size: 16\n";
  const Contract producer = load_contract_text(
      header +
          "name: front\nfields:\n  - {name: X, offset: 0, dims: [{name: i, size: 8, stride: 1}]}\n"
          "padding:\n  - {name: tail, offset: 8, size: 8, fill: -1}\n",
      "front.yaml");
  const Contract consumer = load_contract_text(
      header +
          "name: back\nfields:\n  - {name: X, offset: 6, dims: [{name: i, size: 8, stride: 1}]}\n"
          "padding:\n  - {name: head, offset: 0, size: 6}\n  - {name: end, offset: 14, size: 2}\n",
      "back.yaml");
  const MisreadReport report = diff_contracts(producer, consumer);
  EXPECT_EQ(report.misread, 8);
  ASSERT_EQ(report.runs.size(), 2u);
  EXPECT_EQ(report.runs[0].offset_begin, 6);
  EXPECT_EQ(report.runs[0].offset_end, 8);
  EXPECT_EQ(report.runs[0].producer, "X[6:8]");
  EXPECT_EQ(report.runs[0].consumer, "X[0:2]");
  EXPECT_EQ(report.runs[1].offset_begin, 8);
  EXPECT_EQ(report.runs[1].offset_end, 14);
  EXPECT_EQ(report.runs[1].producer, "padding 'tail'[0:6]");
  EXPECT_EQ(report.runs[1].consumer, "X[2:8]");
}

TEST(CompareReads, DeclaredAliasesAreReadAsWritten) {
  // X and Y share offsets 0-3; the row map can name only one of them per offset.
  const Contract aliased = load_contract_text(
      "layoutcheck: 1\nname: aliased\nbuffer: buf\ndtype: bf16\nfields:\n"
      "  - {name: X, offset: 0, dims: [{name: i, size: 4, stride: 1}], may_alias: [Y]}\n"
      "  - {name: Y, offset: 0, dims: [{name: i, size: 4, stride: 1}], may_alias: [X]}\n",
      "aliased.yaml");
  EXPECT_EQ(diff_contracts(aliased, aliased).misread, 0);
  Contract reversed = aliased;  // Y read backwards: only Y misread, and not where Y[i] sits
  reversed.fields[1].offset = 3;
  reversed.fields[1].dims[0].modes[0].stride = -1;
  const MisreadReport report = diff_contracts(aliased, reversed);
  EXPECT_EQ(report.fields[0].misread, 0);
  EXPECT_EQ(report.fields[1].misread, 4);
}

TEST(CompareReads, GapsAndOffsetsPastTheRow) {
  // Producer: X at 0..3, nothing at 4..5 (built in code: lint would reject the gap).
  const Contract producer = contract("p", 6, {field("X", 0, {dim("i", 4, 1)})});
  const Contract consumer = contract("c", 10, {field("X", 3, {dim("i", 4, 2)})});  // 3,5,7,9
  const MisreadReport report = diff_contracts(producer, consumer);
  EXPECT_EQ(report.misread, 4);
  ASSERT_EQ(report.runs.size(), 4u);  // stride 2: no two offsets are consecutive
  EXPECT_EQ(report.runs[0].producer, "X[3]");
  EXPECT_EQ(report.runs[1].producer, "nothing");
  EXPECT_EQ(report.runs[2].producer, "beyond the row");
  EXPECT_EQ(report.runs[3].offset_begin, 9);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0], "rows differ in size: producer 6, consumer 10 elements");

  // Consecutive reads of a gap or past the row form one run each.
  const Contract wide = contract("w", 12, {field("X", 4, {dim("i", 4, 1)})});  // 4..7
  const MisreadReport gap = diff_contracts(producer, wide);
  ASSERT_EQ(gap.runs.size(), 2u);
  EXPECT_EQ(gap.runs[0].producer, "nothing");
  EXPECT_EQ(gap.runs[0].consumer, "X[0:2]");
  EXPECT_EQ(gap.runs[1].producer, "beyond the row");
  EXPECT_EQ(gap.runs[1].consumer, "X[2:4]");
}

TEST(CompareReads, ProbeMarkersAreUnresolvedNotMisread) {
  const testing::GdnSizes s;
  const Contract next = testing::load_shipped("qwen3_next.qkvz", s);
  const Contract flat = testing::load_shipped("qwen3_5.qkvz", s);
  ReadMap reads = ReadMap::from_contract(flat);
  const std::int64_t q1_5 = flat.global_id(flat.parse_element("Q[1,5]"));
  reads.offsets[static_cast<std::size_t>(q1_5)] = ReadMap::kAmbiguous;
  reads.offsets[0] = ReadMap::kUnresolved;
  reads.offsets[1] = ReadMap::kNotRead;
  const MisreadReport report = compare_reads(next, flat, reads);
  EXPECT_EQ(report.unresolved, 3);
  EXPECT_EQ(report.fields[0].unresolved, 3);
  EXPECT_EQ(report.misread, 15488 - 1);  // Q[1,5] was misread before it became a marker
  EXPECT_EQ(report.misread_mask[static_cast<std::size_t>(q1_5)], 0);
  EXPECT_EQ(report.unresolved_elements, (std::vector<std::string>{"Q[0,0]", "Q[0,1]", "Q[1,5]"}));
  // The marker splits the run of offsets 128-255 in two.
  ASSERT_GE(report.runs.size(), 2u);
  EXPECT_EQ(report.runs[0].offset_begin, 128);
  EXPECT_EQ(report.runs[0].offset_end, 133);
  EXPECT_EQ(report.runs[0].producer, "K[0,0:5]");
  EXPECT_EQ(report.runs[1].offset_begin, 134);
  EXPECT_EQ(report.runs[1].consumer, "Q[1,6:128]");

  // Names are capped for display, the count is not.
  for (std::size_t e = 0; e < 100; ++e) reads.offsets[e] = ReadMap::kUnresolved;
  const MisreadReport many = compare_reads(next, flat, reads);
  EXPECT_EQ(many.unresolved, 101);
  EXPECT_EQ(many.unresolved_elements.size(), kMaxUnresolvedNames);
}

TEST(CompareReads, ReadMapMustCoverTheConsumer) {
  const Contract c = contract("c", 4, {field("X", 0, {dim("i", 4, 1)})});
  ReadMap reads;
  reads.offsets = {0, 1, 2};
  EXPECT_THROW(compare_reads(c, c, reads), std::invalid_argument);
}

// 10^7 elements per row: a permutation of 1000-element blocks (10^4 runs) and a transpose (10^7
// one-element runs, of which only the first kMaxStoredRuns are formatted). How long it takes is
// the contract benchmark's to say (BM_Diff, BM_DiffTranspose), not a test's.
TEST(CompareReads, TenMillionElementsPerRow) {
  const std::int64_t rows = 10000, cols = 1000, n = rows * cols;
  const Contract producer =
      contract("p", n, {field("X", 0, {dim("r", rows, cols), dim("c", cols, 1)})});
  Contract blocks = producer;
  blocks.name = "blocks";
  blocks.fields[0].dims[0].modes = {Mode{"even", 2, n / 2, {}}, Mode{"pair", rows / 2, cols, {}}};
  Contract transposed = producer;
  transposed.name = "transposed";
  transposed.fields[0].dims = {dim("r", rows, 1), dim("c", cols, rows)};

  for (const Contract* consumer : {&blocks, &transposed}) {
    const MisreadReport report = diff_contracts(producer, *consumer);
    EXPECT_EQ(report.elements, n);
    if (consumer == &blocks) {
      EXPECT_EQ(report.misread, n - 2 * cols);  // rows 0 and 9999 stay where they are
      EXPECT_EQ(report.runs_total, rows - 2);
      EXPECT_EQ(report.runs[0].producer, "X[5000,0:1000]");  // X[1] = (even 1, pair 0)
      EXPECT_EQ(report.runs[0].consumer, "X[1,0:1000]");
    } else {
      EXPECT_EQ(report.runs_total, report.misread);
      EXPECT_EQ(report.runs.size(), kMaxStoredRuns);
    }
  }
}

}  // namespace
}  // namespace layoutcheck
