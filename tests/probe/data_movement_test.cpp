// Bit-plane probes decode pure data movement exactly: every output's source, constants and
// computed values told apart, and adapters checked against the permutation between two contracts.
#include "layoutcheck/probe/data_movement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

// output[j] = input[gather[j]]; gather[j] < 0 writes the constant `fill`; negate flips signs.
class GatherRunner : public DataMovementRunner {
 public:
  GatherRunner(std::int64_t inputs, std::vector<std::int64_t> gather, bool negate = false)
      : inputs_(inputs), gather_(std::move(gather)), negate_(negate) {}
  std::string name() const override { return "test gather"; }
  std::int64_t input_size() const override { return inputs_; }
  std::int64_t output_size() const override { return static_cast<std::int64_t>(gather_.size()); }
  std::vector<bf16_bits> run(const std::vector<bf16_bits>& input) override {
    ++calls;
    std::vector<bf16_bits> output(gather_.size(), float_to_bf16(0.5f));
    for (std::size_t j = 0; j < gather_.size(); ++j)
      if (gather_[j] >= 0) output[j] = negate_ ? input[gather_[j]] ^ 0x8000 : input[gather_[j]];
    return output;
  }
  int calls = 0;

 private:
  std::int64_t inputs_;
  std::vector<std::int64_t> gather_;
  bool negate_;
};

TEST(BitPlaneProbes, DecodeARandomPermutationExactlyInLogRuns) {
  for (std::int64_t n : {1, 2, 3, 1000, 1024, 1025}) {
    SCOPED_TRACE(n);
    std::vector<std::int64_t> permutation(static_cast<std::size_t>(n));
    std::iota(permutation.begin(), permutation.end(), 0);
    std::shuffle(permutation.begin(), permutation.end(), std::mt19937_64(n));
    GatherRunner runner(n, permutation);
    const SourceMap map = probe_data_movement(runner);
    EXPECT_EQ(map.source, permutation);
    int bits = 0;
    while ((std::int64_t{1} << bits) < n) ++bits;
    EXPECT_EQ(map.runs, bits + 2);
    EXPECT_EQ(runner.calls, bits + 2);
  }
}

TEST(BitPlaneProbes, TellCopiesFromConstantsAndComputedValues) {
  GatherRunner gather(8, {3, -1, 7, 3, 0});
  EXPECT_EQ(probe_data_movement(gather).source,
            (std::vector<std::int64_t>{3, SourceMap::kConstant, 7, 3, 0}));
  GatherRunner negated(8, {1, 2}, true);
  EXPECT_EQ(probe_data_movement(negated).source,
            (std::vector<std::int64_t>{SourceMap::kNotACopy, SourceMap::kNotACopy}));
}

TEST(BitPlaneProbes, CpuAdapterIsExactlyThePermutationBetweenItsContracts) {
  const GdnShape shape{3, 9, 5, 7, 4};
  for (auto [from, to] : {std::pair{flat_qkvz_contract(shape), interleaved_qkvz_contract(shape)},
                          std::pair{interleaved_qkvz_contract(shape), flat_qkvz_contract(shape)},
                          std::pair{flat_ba_contract(shape), interleaved_ba_contract(shape)}}) {
    SCOPED_TRACE(from.name + " -> " + to.name);
    CpuAdapter adapter(from, to, 3);
    const AdapterVerdict verdict = check_adapter(adapter, from, to, 3);
    EXPECT_TRUE(verdict.exact());
    EXPECT_EQ(verdict.reads.misread, 0);
    EXPECT_EQ(verdict.constants + verdict.not_copies + verdict.crossed_rows, 0);
  }
}

TEST(BitPlaneProbes, BrokenAdaptersAreCaughtWithTheRightDiagnosis) {
  const GdnShape shape{2, 4, 4, 3, 4};
  const Contract flat = flat_qkvz_contract(shape), upstream = interleaved_qkvz_contract(shape);
  const std::int64_t q01 = upstream.find_field("Q")->offset_of(std::vector<std::int64_t>{0, 1});
  const std::int64_t k01 = upstream.find_field("K")->offset_of(std::vector<std::int64_t>{0, 1});

  CpuAdapter swapped(flat, upstream, 2);
  std::swap(swapped.gather()[q01], swapped.gather()[k01]);  // row 0 only
  AdapterVerdict verdict = check_adapter(swapped, flat, upstream, 2);
  EXPECT_FALSE(verdict.exact());
  EXPECT_EQ(verdict.reads.unresolved, 2);  // rows 0 and 1 disagree for Q[0,1] and K[0,1]

  CpuAdapter both_rows(flat, upstream, 2);
  for (std::int64_t row = 0; row < 2; ++row)
    std::swap(both_rows.gather()[row * upstream.row_size + q01],
              both_rows.gather()[row * upstream.row_size + k01]);
  verdict = check_adapter(both_rows, flat, upstream, 2);
  EXPECT_EQ(verdict.reads.misread, 2);
  ASSERT_EQ(verdict.reads.runs.size(), 2u);
  EXPECT_EQ(verdict.reads.runs[0].consumer, "Q[0,1]");
  EXPECT_EQ(verdict.reads.runs[0].producer, "K[0,1]");

  CpuAdapter dropped(flat, upstream, 2);
  dropped.gather()[q01] = -1;  // writes zero instead of copying
  verdict = check_adapter(dropped, flat, upstream, 2);
  EXPECT_EQ(verdict.constants, 1);

  CpuAdapter crossing(flat, upstream, 2);
  crossing.gather()[upstream.row_size + q01] = q01;  // row 1 copies row 0's element
  verdict = check_adapter(crossing, flat, upstream, 2);
  EXPECT_EQ(verdict.crossed_rows, 1);
  EXPECT_FALSE(verdict.exact());
}

TEST(BitPlaneProbes, RejectAdaptersOfTheWrongSize) {
  const GdnShape shape{2, 4, 4, 3, 4};
  CpuAdapter adapter(flat_ba_contract(shape), interleaved_ba_contract(shape), 2);
  EXPECT_THROW(check_adapter(adapter, flat_ba_contract(shape), interleaved_ba_contract(shape), 3),
               std::invalid_argument);
}

}  // namespace
}  // namespace layoutcheck
