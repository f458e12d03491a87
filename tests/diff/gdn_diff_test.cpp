// The static diff of the shipped GDN contracts against an independent brute-force model of the same
// layouts (gdn_layouts.h): per-field misread counts, the misread mask and every run's offsets must
// match, in both directions and at several head counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "gdn_layouts.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"

namespace layoutcheck {
namespace {

using testing::GdnSizes;
using testing::LayoutModel;

struct Expected {
  std::vector<std::int64_t> misread_per_field;
  std::int64_t misread = 0;
  std::vector<std::uint8_t> mask;
  std::vector<std::pair<std::int64_t, std::int64_t>> runs;  // [begin, end) offsets
};

// Brute force: what the producer holds at every offset, then walk the consumer's elements.
Expected expected_diff(const LayoutModel& producer, const LayoutModel& consumer) {
  std::int64_t row = 0;
  for (const auto& field : producer) row += field.elements();
  std::vector<std::pair<int, std::int64_t>> held(static_cast<std::size_t>(row), {-1, -1});
  for (std::size_t f = 0; f < producer.size(); ++f)
    for (std::int64_t i = 0; i < producer[f].elements(); ++i)
      held[static_cast<std::size_t>(producer[f].offset(i))] = {static_cast<int>(f), i};
  Expected expected;
  for (std::size_t f = 0; f < consumer.size(); ++f) {
    std::int64_t count = 0;
    bool in_run = false;
    std::int64_t last_offset = 0;
    std::pair<int, std::int64_t> last_held;
    for (std::int64_t i = 0; i < consumer[f].elements(); ++i) {
      const std::int64_t offset = consumer[f].offset(i);
      const auto here = held[static_cast<std::size_t>(offset)];
      const bool misread = here != std::pair{static_cast<int>(f), i};
      expected.mask.push_back(misread);
      if (!misread) {
        in_run = false;
        continue;
      }
      ++count;
      if (in_run && offset == last_offset + 1 && here.first == last_held.first &&
          here.second == last_held.second + 1)
        expected.runs.back().second = offset + 1;
      else
        expected.runs.emplace_back(offset, offset + 1);
      in_run = true;
      last_offset = offset;
      last_held = here;
    }
    expected.misread_per_field.push_back(count);
    expected.misread += count;
  }
  return expected;
}

void expect_diff_matches_model(const std::string& producer_file, const std::string& consumer_file,
                               const LayoutModel& producer_model, const LayoutModel& consumer_model,
                               GdnSizes sizes) {
  SCOPED_TRACE(producer_file + " -> " + consumer_file + " at H=" + std::to_string(sizes.H) +
               " HV=" + std::to_string(sizes.HV) + " K=" + std::to_string(sizes.K) +
               " V=" + std::to_string(sizes.V));
  const Contract producer = testing::load_shipped(producer_file, sizes);
  const Contract consumer = testing::load_shipped(consumer_file, sizes);
  const MisreadReport report = diff_contracts(producer, consumer);
  const Expected expected = expected_diff(producer_model, consumer_model);

  EXPECT_EQ(report.misread, expected.misread);
  EXPECT_EQ(report.unresolved, 0);
  ASSERT_EQ(report.fields.size(), consumer_model.size());
  for (std::size_t f = 0; f < consumer_model.size(); ++f) {
    EXPECT_EQ(report.fields[f].name, consumer_model[f].name);
    EXPECT_EQ(report.fields[f].elements, consumer_model[f].elements());
    EXPECT_EQ(report.fields[f].misread, expected.misread_per_field[f]) << consumer_model[f].name;
  }
  EXPECT_EQ(report.misread_mask, expected.mask);
  EXPECT_EQ(report.runs_total, static_cast<std::int64_t>(expected.runs.size()));
  ASSERT_EQ(report.runs.size(), std::min(expected.runs.size(), kMaxStoredRuns));
  for (std::size_t r = 0; r < report.runs.size(); ++r) {
    ASSERT_EQ(report.runs[r].offset_begin, expected.runs[r].first) << "run " << r;
    ASSERT_EQ(report.runs[r].offset_end, expected.runs[r].second) << "run " << r;
  }
}

const GdnSizes kSizes[] = {{16, 48, 128, 128}, {16, 32, 128, 128}, {4, 12, 8, 16}, {2, 2, 4, 4}};

TEST(GdnDiff, QkvzMatchesTheClosedFormLayouts) {
  for (const GdnSizes& s : kSizes) {
    expect_diff_matches_model("qwen3_5.qkvz", "qwen3_next.qkvz", testing::flat_qkvz(s),
                              testing::interleaved_qkvz(s), s);
    expect_diff_matches_model("qwen3_next.qkvz", "qwen3_5.qkvz", testing::interleaved_qkvz(s),
                              testing::flat_qkvz(s), s);
  }
}

TEST(GdnDiff, BaMatchesTheClosedFormLayouts) {
  for (const GdnSizes& s : kSizes) {
    expect_diff_matches_model("qwen3_5.ba", "qwen3_next.ba", testing::flat_ba(s),
                              testing::interleaved_ba(s), s);
    expect_diff_matches_model("qwen3_next.ba", "qwen3_5.ba", testing::interleaved_ba(s),
                              testing::flat_ba(s), s);
  }
}

TEST(GdnDiff, StateOrdersMatchTheClosedFormLayouts) {
  for (const GdnSizes& s : {GdnSizes{16, 48, 128, 128}, GdnSizes{2, 6, 8, 16}}) {
    expect_diff_matches_model("state.hkv", "state.hvk", testing::state_hkv(s),
                              testing::state_hvk(s), s);
    expect_diff_matches_model("state.hvk", "state.hkv", testing::state_hvk(s),
                              testing::state_hkv(s), s);
  }
}

// The figures a reviewer sees at the default 16/48/128/128. Only Q[0], V[18:21] and Z[45:48] sit
// at the same offset in both qkvz layouts (V: 4096 + 128*hv == 1024*h + 256 + 128*r for h = 6),
// so 16384 - 128 - 384 - 384 = 15488 elements are misread; only the state diagonal k == v agrees.
TEST(GdnDiff, DefaultSizeFigures) {
  const GdnSizes s;
  auto misread = [&](const char* producer, const char* consumer) {
    return diff_contracts(testing::load_shipped(producer, s), testing::load_shipped(consumer, s))
        .misread;
  };
  EXPECT_EQ(misread("qwen3_5.qkvz", "qwen3_next.qkvz"), 15488);
  EXPECT_EQ(misread("qwen3_next.qkvz", "qwen3_5.qkvz"), 15488);
  EXPECT_EQ(misread("qwen3_5.ba", "qwen3_next.ba"), 96 - 3 - 3);  // B[0:3] and A[45:48] agree
  EXPECT_EQ(misread("state.hkv", "state.hvk"), 48 * 128 * 127);
}

// Which elements the producer holds where the consumer reads: the run text of the design brief.
TEST(GdnDiff, RunsNameWhatIsHeldAndWhatIsExpected) {
  const GdnSizes s;
  const Contract flat = testing::load_shipped("qwen3_5.qkvz", s);
  const Contract interleaved = testing::load_shipped("qwen3_next.qkvz", s);

  // Qwen3-Next buffers fed to a Qwen3.5 kernel: it reads Q[1] at 128-255, where K[0] is.
  const MisreadReport next_into_flat = diff_contracts(interleaved, flat);
  ASSERT_GE(next_into_flat.runs.size(), 3u);
  EXPECT_EQ(next_into_flat.runs[0].offset_begin, 128);
  EXPECT_EQ(next_into_flat.runs[0].offset_end, 256);
  EXPECT_EQ(next_into_flat.runs[0].producer, "K[0,0:128]");
  EXPECT_EQ(next_into_flat.runs[0].consumer, "Q[1,0:128]");
  // One run spans three value heads of the producer: boxes, not element lists.
  EXPECT_EQ(next_into_flat.runs[1].producer, "V[0:3,0:128]");
  EXPECT_EQ(next_into_flat.runs[1].consumer, "Q[2:5,0:128]");

  // The other way round (the bug of the design brief): at 128-255 the Qwen3-Next kernel reads
  // K[0], which a Qwen3.5 producer filled with Q[1].
  const MisreadReport flat_into_next = diff_contracts(flat, interleaved);
  const auto it = std::find_if(flat_into_next.runs.begin(), flat_into_next.runs.end(),
                               [](const MisreadRun& run) { return run.offset_begin == 128; });
  ASSERT_NE(it, flat_into_next.runs.end());
  EXPECT_EQ(it->offset_end, 256);
  EXPECT_EQ(it->producer, "Q[1,0:128]");
  EXPECT_EQ(it->consumer, "K[0,0:128]");
  // Runs are listed in the consumer's element order: Q[1] first, read where Q[8] is.
  EXPECT_EQ(flat_into_next.runs[0].consumer, "Q[1,0:128]");
  EXPECT_EQ(flat_into_next.runs[0].producer, "Q[8,0:128]");
  EXPECT_EQ(flat_into_next.runs[0].offset_begin, 1024);
}

TEST(Diff, EveryShippedContractAgreesWithItself) {
  int contracts = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(LAYOUTCHECK_CONTRACTS_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    const Contract contract = load_contract(entry.path().string());
    const MisreadReport report = diff_contracts(contract, contract);
    EXPECT_EQ(report.misread, 0);
    EXPECT_EQ(report.elements, contract.elements());
    EXPECT_TRUE(report.runs.empty());
    EXPECT_EQ(report.runs_total, 0);
    EXPECT_TRUE(report.notes.empty());
    ++contracts;
  }
  EXPECT_GE(contracts, 6);
}

}  // namespace
}  // namespace layoutcheck
