// Bit-plane probes of the adapters (design §6): ceil(log2 N) runs, each source element holding
// one bit of its own index, decode exactly which source element every target element came from;
// the result must be exactly the permutation between the two contracts, in every batch row, with
// nothing else in the target written.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu_test_support.h"
#include "kernels/gdn_kernels.h"
#include "layoutcheck/gdn/standard_layouts.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/generated_adapter.h"
#include "layoutcheck/gpu/stream.h"

namespace layoutcheck::gpu {
namespace {

// Moves batch rows from source (rows source_stride apart) to target (target_stride apart).
using Movement = std::function<void(const void* source, void* target, std::int64_t batch,
                                    hipStream_t stream)>;

constexpr std::int64_t kUntouched = -1;

// For every target element, the index of the source element it holds, or kUntouched.
template <class Element>
std::vector<std::int64_t> decode_bit_planes(const Movement& move, std::int64_t source_size,
                                            std::int64_t target_size, std::int64_t batch) {
  int bits = 0;
  while ((std::int64_t{1} << bits) < source_size) ++bits;
  std::vector<std::int64_t> decoded(static_cast<std::size_t>(target_size), 0);
  std::vector<bool> written(static_cast<std::size_t>(target_size), true);
  DeviceBuffer<Element> source(static_cast<std::size_t>(source_size));
  DeviceBuffer<Element> target(static_cast<std::size_t>(target_size));
  Stream stream;
  std::vector<Element> plane(static_cast<std::size_t>(source_size));
  for (int bit = 0; bit < bits; ++bit) {
    for (std::int64_t i = 0; i < source_size; ++i)
      plane[static_cast<std::size_t>(i)] = static_cast<Element>((i >> bit) & 1);
    source.upload(plane);
    target.fill_bytes(0x55);  // neither 0 nor 1: an element no one writes stays recognisable
    move(source.data(), target.data(), batch, stream.get());
    stream.synchronize();
    const std::vector<Element> result = target.to_host();
    for (std::int64_t t = 0; t < target_size; ++t) {
      const Element value = result[static_cast<std::size_t>(t)];
      if (value == 1)
        decoded[static_cast<std::size_t>(t)] |= std::int64_t{1} << bit;
      else if (value != 0)
        written[static_cast<std::size_t>(t)] = false;
    }
  }
  for (std::int64_t t = 0; t < target_size; ++t)
    if (!written[static_cast<std::size_t>(t)]) decoded[static_cast<std::size_t>(t)] = kUntouched;
  return decoded;
}

// What the contracts say: target element at (row, to-offset of e) holds source (row, from-offset).
std::vector<std::int64_t> expected_permutation(const Contract& from, const Contract& to,
                                               std::int64_t from_stride, std::int64_t to_stride,
                                               std::int64_t target_size, std::int64_t batch) {
  std::vector<std::int64_t> expected(static_cast<std::size_t>(target_size), kUntouched);
  for (const Field& field : from.fields) {
    const Field& target_field = *to.find_field(field.name);
    std::vector<std::int64_t> source_offsets(static_cast<std::size_t>(field.elements()));
    field.for_each_offset([&](std::int64_t e, std::int64_t offset) {
      source_offsets[static_cast<std::size_t>(e)] = offset;
    });
    for (std::int64_t row = 0; row < batch; ++row)
      target_field.for_each_offset([&](std::int64_t e, std::int64_t offset) {
        expected[static_cast<std::size_t>(row * to_stride + offset)] =
            row * from_stride + source_offsets[static_cast<std::size_t>(e)];
      });
  }
  return expected;
}

template <class Element>
void expect_exact_permutation(const Movement& move, const Contract& from, const Contract& to,
                              std::int64_t batch) {
  const std::int64_t from_stride = from.row_size, to_stride = to.row_size;
  const std::vector<std::int64_t> decoded = decode_bit_planes<Element>(
      move, batch * from_stride, batch * to_stride, batch);
  const std::vector<std::int64_t> expected =
      expected_permutation(from, to, from_stride, to_stride, batch * to_stride, batch);
  std::int64_t wrong = 0;
  std::string first;
  for (std::size_t t = 0; t < expected.size(); ++t)
    if (decoded[t] != expected[t] && wrong++ == 0)
      first = "target " + std::to_string(t) + " holds source " + std::to_string(decoded[t]) +
              ", the contracts say " + std::to_string(expected[t]);
  EXPECT_EQ(wrong, 0) << wrong << " target elements differ from the permutation; first: " << first;
}

std::vector<GdnShape> adapter_shapes() {
  return {GdnShape{16, 48, 128, 128, 4}, GdnShape{16, 32, 128, 128, 4},
          GdnShape{2, 6, 37, 65, 4}, GdnShape{3, 3, 64, 40, 4}};
}

std::string shape_text(const GdnShape& s) {
  return std::to_string(s.H) + "/" + std::to_string(s.HV) + "/" + std::to_string(s.K) + "/" +
         std::to_string(s.V);
}

TEST(HandWrittenAdapters, QkvzIsExactlyThePermutation) {
  LC_REQUIRE_GPU();
  for (const GdnShape& shape : adapter_shapes()) {
    SCOPED_TRACE(shape_text(shape));
    const Contract from = flat_qkvz_contract(shape), to = interleaved_qkvz_contract(shape);
    const Movement move = [&](const void* source, void* target, std::int64_t batch,
                              hipStream_t stream) {
      kernels::launch_adapt_qkvz_flat_to_interleaved(
          static_cast<const unsigned short*>(source), from.row_size,
          static_cast<unsigned short*>(target), to.row_size, batch, shape.H, shape.HV, shape.K,
          shape.V, stream);
    };
    expect_exact_permutation<std::uint16_t>(move, from, to, 3);
  }
}

TEST(HandWrittenAdapters, BaIsExactlyThePermutation) {
  LC_REQUIRE_GPU();
  for (const GdnShape& shape : adapter_shapes()) {
    SCOPED_TRACE(shape_text(shape));
    const Contract from = flat_ba_contract(shape), to = interleaved_ba_contract(shape);
    const Movement move = [&](const void* source, void* target, std::int64_t batch,
                              hipStream_t stream) {
      kernels::launch_adapt_ba_flat_to_interleaved(static_cast<const unsigned short*>(source),
                                                   from.row_size,
                                                   static_cast<unsigned short*>(target),
                                                   to.row_size, batch, shape.H, shape.HV, stream);
    };
    expect_exact_permutation<std::uint16_t>(move, from, to, 5);
  }
}

template <class Element>
void check_generated(const Contract& from, const Contract& to, std::int64_t batch) {
  const GeneratedAdapter adapter(from, to);
  const Movement move = [&](const void* source, void* target, std::int64_t rows,
                            hipStream_t stream) {
    adapter.enqueue(source, from.row_size, target, to.row_size, rows, stream);
  };
  expect_exact_permutation<Element>(move, from, to, batch);
}

TEST(GeneratedAdapters, EveryPairIsExactlyThePermutation) {
  LC_REQUIRE_GPU();
  for (const GdnShape& shape : adapter_shapes()) {
    SCOPED_TRACE(shape_text(shape));
    check_generated<std::uint16_t>(flat_qkvz_contract(shape), interleaved_qkvz_contract(shape), 2);
    check_generated<std::uint16_t>(interleaved_qkvz_contract(shape), flat_qkvz_contract(shape), 2);
    check_generated<std::uint16_t>(flat_ba_contract(shape), interleaved_ba_contract(shape), 3);
    check_generated<std::uint16_t>(interleaved_ba_contract(shape), flat_ba_contract(shape), 3);
  }
  const GdnShape small{2, 4, 24, 40, 4};  // state transposes: 2^log2 runs over every element
  check_generated<std::uint32_t>(state_contract(small, StateOrder::hkv),
                                 state_contract(small, StateOrder::hvk), 2);
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
