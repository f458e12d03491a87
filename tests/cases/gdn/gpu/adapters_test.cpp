// Bit-plane probes of the adapters (design §6, probe/data_movement.h): ceil(log2 N) runs decode,
// for every target element, the source element it was copied from. Each adapter must be exactly
// the permutation between its two contracts, in every batch row, nothing crossing rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/gpu_test_support.h"
#include "cases/gdn/standard_layouts.h"
#include "cases/gdn/gpu/adapter_runners.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/generated_adapter.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/probe/data_movement.h"

namespace layoutcheck::gpu {
namespace {

std::vector<GdnShape> adapter_shapes() {
  return {GdnShape{16, 48, 128, 128, 4}, GdnShape{16, 32, 128, 128, 4}, GdnShape{2, 6, 37, 65, 4},
          GdnShape{3, 3, 64, 40, 4}};
}

std::string shape_text(const GdnShape& s) {
  return std::to_string(s.H) + "/" + std::to_string(s.HV) + "/" + std::to_string(s.K) + "/" +
         std::to_string(s.V);
}

void expect_exact(DataMovementRunner& runner, const Contract& producer, const Contract& consumer,
                  std::int64_t batch) {
  const AdapterVerdict verdict = check_adapter(runner, producer, consumer, batch);
  EXPECT_TRUE(verdict.exact()) << runner.name() << ": " << verdict.reads.misread << " misread, "
                               << verdict.reads.unresolved << " unresolved, "
                               << verdict.crossed_rows << " crossed rows";
  EXPECT_EQ(verdict.not_copies, 0);
}

TEST(HandWrittenAdapters, AreExactlyThePermutation) {
  LC_REQUIRE_GPU();
  for (const GdnShape& shape : adapter_shapes()) {
    SCOPED_TRACE(shape_text(shape));
    auto qkvz = make_hand_written_qkvz_adapter(shape, 3);
    expect_exact(*qkvz, flat_qkvz_contract(shape), interleaved_qkvz_contract(shape), 3);
    auto ba = make_hand_written_ba_adapter(shape, 5);
    expect_exact(*ba, flat_ba_contract(shape), interleaved_ba_contract(shape), 5);
  }
}

TEST(GeneratedAdapters, AreExactlyThePermutation) {
  LC_REQUIRE_GPU();
  for (const GdnShape& shape : adapter_shapes()) {
    SCOPED_TRACE(shape_text(shape));
    const Contract flat_qkvz = flat_qkvz_contract(shape);
    const Contract next_qkvz = interleaved_qkvz_contract(shape);
    const Contract flat_ba = flat_ba_contract(shape), next_ba = interleaved_ba_contract(shape);
    expect_exact(*make_generated_adapter(flat_qkvz, next_qkvz, 2), flat_qkvz, next_qkvz, 2);
    expect_exact(*make_generated_adapter(next_qkvz, flat_qkvz, 2), next_qkvz, flat_qkvz, 2);
    expect_exact(*make_generated_adapter(flat_ba, next_ba, 3), flat_ba, next_ba, 3);
    expect_exact(*make_generated_adapter(next_ba, flat_ba, 3), next_ba, flat_ba, 3);
  }
}

// fp32 state transposes: every element's value is its own index (exact in fp32 below 2^24), so one
// run shows where each came from; the bit-plane runners move bf16 only.
TEST(GeneratedAdapters, StateTransposeIsExactlyThePermutation) {
  LC_REQUIRE_GPU();
  const GdnShape shape{2, 6, 40, 24, 4};
  const std::int64_t batch = 3;
  const Contract from = state_contract(shape, StateOrder::hkv);
  const Contract to = state_contract(shape, StateOrder::hvk);
  const GeneratedAdapter adapter(from, to);
  std::vector<float> source(static_cast<std::size_t>(batch * from.row_size));
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<float>(i);
  DeviceBuffer<float> input{std::span<const float>(source)};
  DeviceBuffer<float> output(static_cast<std::size_t>(batch * to.row_size));
  output.fill_bytes(0xff);  // NaN: anything not written shows
  Stream stream;
  adapter.enqueue(input.data(), from.row_size, output.data(), to.row_size, batch, stream.get());
  stream.synchronize();
  const std::vector<float> result = output.to_host();
  const Field& s_from = from.fields.front();
  const Field& s_to = *to.find_field(s_from.name);
  std::int64_t wrong = 0;
  for (std::int64_t row = 0; row < batch; ++row)
    for (std::int64_t e = 0; e < s_from.elements(); ++e) {
      const float expected = static_cast<float>(row * from.row_size + s_from.offset_of_linear(e));
      wrong += result[static_cast<std::size_t>(row * to.row_size + s_to.offset_of_linear(e))] !=
               expected;
    }
  EXPECT_EQ(wrong, 0);
}

// Runs contiguous in both rows are copied 16 bytes at a time; a transpose cannot be.
TEST(GeneratedAdapters, CopiesContiguousRunsWide) {
  const GdnShape shape;
  const codegen::AdapterSource adapter =
      codegen::generate_adapter_source(flat_qkvz_contract(shape), interleaved_qkvz_contract(shape));
  EXPECT_TRUE(adapter.wide_possible) << adapter.description;
  EXPECT_EQ(adapter.wide_items, shape.qkvz_elements() / 8);
  const codegen::AdapterSource transpose = codegen::generate_adapter_source(
      state_contract(shape, StateOrder::hkv), state_contract(shape, StateOrder::hvk));
  EXPECT_FALSE(transpose.wide_possible) << transpose.description;
}

}  // namespace
}  // namespace layoutcheck::gpu
