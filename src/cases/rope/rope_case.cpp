#include "cases/rope/rope_case.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "cases/rope/rope_layout.h"
#include "cases/rope/rope_reference.h"

namespace layoutcheck {
namespace {

using rope::Fault;

constexpr double kFrequencyBase = 10000.0;  // the original RoPE's theta base

// N(0,1)-ish from four uniforms (Irwin-Hall, variance 1): mt19937_64 is specified bit for bit,
// std::normal_distribution is not, so the same seed gives the same buffers on every library.
double standard_normalish(std::mt19937_64& rng) {
  double sum = 0;
  for (int i = 0; i < 4; ++i) sum += static_cast<double>(rng() >> 11) * 0x1.0p-53;
  return (sum - 2.0) * std::sqrt(3.0);
}

// Enough positions that every token gets a distinct one.
std::int64_t table_rows(std::int64_t batch) {
  return std::max<std::int64_t>(64, 4 * batch);
}

void fill_x(HostBuffer& x, const Contract& contract, std::mt19937_64& rng) {
  const Field& field = contract.fields[0];
  for (std::int64_t row = 0; row < x.rows; ++row)
    field.for_each_offset([&](std::int64_t, std::int64_t offset) {
      x.set_value(row * x.row_stride + offset, standard_normalish(rng));
    });
}

// cos/sin of pos * base^(-2p/D), D = 2P: the standard RoPE frequencies.
void fill_table(HostBuffer& table, const Contract& contract, std::int64_t pairs) {
  const Field& cos = *contract.find_field("COS");
  const Field& sin = *contract.find_field("SIN");
  for (std::int64_t pos = 0; pos < table.rows; ++pos)
    for (std::int64_t p = 0; p < pairs; ++p) {
      const double angle =
          static_cast<double>(pos) *
          std::pow(kFrequencyBase, -static_cast<double>(p) / static_cast<double>(pairs));
      table.set_value(pos * table.row_stride + cos.offset_of_linear(p), std::cos(angle));
      table.set_value(pos * table.row_stride + sin.offset_of_linear(p), std::sin(angle));
    }
}

// Distinct positions in [1, rows): never 0, where sin = 0 would hide each element's pair partner
// from a probe. A partial Fisher-Yates on the generator's raw output (std::shuffle's draws are
// not specified either).
void fill_positions(HostBuffer& positions, std::int64_t rows, std::mt19937_64& rng) {
  std::vector<std::int64_t> pool(static_cast<std::size_t>(rows - 1));
  std::iota(pool.begin(), pool.end(), 1);
  for (std::int64_t t = 0; t < positions.elements(); ++t) {
    const std::size_t pick =
        static_cast<std::size_t>(t) + rng() % (pool.size() - static_cast<std::size_t>(t));
    std::swap(pool[static_cast<std::size_t>(t)], pool[pick]);
    positions.set_value(t, static_cast<double>(pool[static_cast<std::size_t>(t)]));
  }
}

class RopeCase : public Case {
 public:
  std::string name() const override { return "rope"; }
  std::string summary() const override {
    return "rotary position embedding: interleaved (GPT-J) against half-split (NeoX) pairs";
  }

  std::vector<BufferSpec> buffers() const override {
    return {
        {"x", BufferRole::input, DType::bf16, "rope/half_split.x.yaml",
         "the vectors to rotate, [token][H, D], in rotated pairs X[h, p, c]"},
        {"cos_sin", BufferRole::input, DType::fp32, "rope/cos_sin.yaml",
         "cos and sin of each pair's angle, one row per position"},
        {"positions", BufferRole::input, DType::i32, "",
         "the position of each token, a row of cos_sin (0 <= pos < its rows)"},
        {"out", BufferRole::output, DType::bf16, "rope/half_split.out.yaml",
         "the rotated vectors, in the layout the kernel reads x"},
    };
  }

  std::vector<AbiSpec> abis() const override {
    return {{"rope_apply_v1",
             "apply the rotation to every head of every token",
             "rope_abi.h",
             {"x", "cos_sin", "positions", "out"}}};
  }

  std::vector<std::string> decoders() const override {
    // Not data movement: the outputs are computed, so only the dependence decoder applies.
    return {std::string(kDependenceDecoder)};
  }
  std::string default_probe_buffer() const override { return "x"; }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    const rope::RopeShape shape = rope::rope_shape_of(layouts);
    std::mt19937_64 rng(seed);
    BufferSet buffers;
    fill_x(buffers.add(make_host_buffer("x", layouts.at("x"), batch)), layouts.at("x"), rng);
    HostBuffer& table =
        buffers.add(make_host_buffer("cos_sin", layouts.at("cos_sin"), table_rows(batch)));
    fill_table(table, layouts.at("cos_sin"), shape.pairs);
    fill_positions(buffers.add(make_host_buffer("positions", DType::i32, batch)), table.rows, rng);
    buffers.add(make_host_buffer("out", layouts.at("out"), batch));
    return buffers;
  }

  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return rope::make_rope_runner(layouts);
  }

  std::vector<std::pair<std::string, std::string>> mutants() const override {
    return {
        {"rotate_backwards",
         "the rotation by -theta (sin sign flipped): right layout, wrong values"},
        {"positions_ignored", "uses the token's row index as its position"},
    };
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    if (name == "rotate_backwards") return rope::make_rope_runner(layouts, Fault::rotate_backwards);
    if (name == "positions_ignored")
      return rope::make_rope_runner(layouts, Fault::positions_ignored);
    return nullptr;
  }

  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    rope::validate_rope_layout(buffer, contract);
  }

  double value_tolerance() const override { return 1e-2; }
};

}  // namespace

std::shared_ptr<const Case> make_rope_case() {
  return std::make_shared<const RopeCase>();
}

}  // namespace layoutcheck
