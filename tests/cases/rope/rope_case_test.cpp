// The rope case: its reference against RoPE written out from first principles on both pairings,
// the misread a kernel built for the other pairing makes, its mutants, its layout checks, its
// buffers and its registration. Shapes: the defaults, powers of two, and odd sizes (H = 3, D = 10:
// P = 5 is odd, so no pairing coincides with a power-of-two stride).
#include "cases/rope/rope_case.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cases/builtin_cases.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/platform/bf16.h"

namespace layoutcheck {
namespace {

struct Shape {
  std::int64_t heads;     // H
  std::int64_t head_dim;  // D
  std::int64_t tokens;    // batch
};

// rocPRIM style: odd sizes beside powers of two, and the smallest legal head (D = 2: one pair).
const std::vector<Shape> kShapes = {
    {8, 64, 4}, {1, 2, 1}, {3, 10, 5}, {4, 16, 2}, {5, 6, 7}, {2, 128, 3}, {7, 14, 1},
};

enum class Pairing { half_split, interleaved };

std::string pairing_name(Pairing pairing) {
  return pairing == Pairing::half_split ? "half_split" : "interleaved";
}

std::string contract_path(const std::string& file) {
  return std::string(LAYOUTCHECK_CONTRACTS_DIR) + "/" + file;
}

LoadOptions sized(const Shape& shape) {
  LoadOptions options;
  options.overrides = {{"H", shape.heads}, {"D", shape.head_dim}};
  return options;
}

CaseLayouts layouts_for(Pairing pairing, const Shape& shape) {
  const std::string name = pairing_name(pairing);
  CaseLayouts layouts;
  layouts["x"] = load_contract(contract_path("rope/" + name + ".x.yaml"), sized(shape));
  layouts["cos_sin"] = load_contract(contract_path("rope/cos_sin.yaml"), sized(shape));
  layouts["out"] = load_contract(contract_path("rope/" + name + ".out.yaml"), sized(shape));
  return layouts;
}

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// A shipped contract with one piece of its text replaced: a wrong dtype, padded rows.
Contract edited_contract(const std::string& file, const std::string& from, const std::string& to,
                         const Shape& shape) {
  std::string text = read_text(contract_path(file));
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in " << file;
  text.replace(at, from.size(), to);
  return load_contract_text(text, file, sized(shape));
}

std::shared_ptr<const Case> rope_case() {
  return make_rope_case();
}

// RoPE from its definition, not from any contract: both pairings keep each head's D elements
// contiguous at h*D of the row; they differ only in which two elements form pair i. cos/sin of
// pair i sit at i and P + i of the position's table row. Products of a bf16 and an fp32 value
// are exact in double, so this agrees with the reference to the bit (FMA contraction or not).
std::vector<bf16_bits> rope_by_definition(const BufferSet& buffers, Pairing pairing,
                                          const Shape& shape) {
  const HostBuffer& x = buffers.at("x");
  const HostBuffer& table = buffers.at("cos_sin");
  const auto positions = buffers.at("positions").as<std::int32_t>();
  const auto x_bits = x.as<bf16_bits>();
  const auto table_values = table.as<float>();
  const std::int64_t D = shape.head_dim, P = D / 2;
  std::vector<bf16_bits> out(buffers.at("out").bytes.size() / 2, 0);
  for (std::int64_t t = 0; t < x.rows; ++t)
    for (std::int64_t h = 0; h < shape.heads; ++h) {
      const std::int64_t head = t * x.row_stride + h * D;  // out has the same row stride here
      const std::int64_t row = positions[static_cast<std::size_t>(t)] * table.row_stride;
      for (std::int64_t i = 0; i < P; ++i) {
        const std::int64_t first = pairing == Pairing::half_split ? i : 2 * i;
        const std::int64_t second = pairing == Pairing::half_split ? i + P : 2 * i + 1;
        const double a = bf16_to_float(x_bits[static_cast<std::size_t>(head + first)]);
        const double b = bf16_to_float(x_bits[static_cast<std::size_t>(head + second)]);
        const double c = table_values[static_cast<std::size_t>(row + i)];
        const double s = table_values[static_cast<std::size_t>(row + P + i)];
        out[static_cast<std::size_t>(head + first)] =
            float_to_bf16(static_cast<float>(a * c - b * s));
        out[static_cast<std::size_t>(head + second)] =
            float_to_bf16(static_cast<float>(b * c + a * s));
      }
    }
  return out;
}

std::vector<bf16_bits> output_of(CaseRunner& runner, BufferSet buffers) {
  runner.run(buffers);
  const auto bits = buffers.at("out").as<bf16_bits>();
  return {bits.begin(), bits.end()};
}

std::int64_t differing(const std::vector<bf16_bits>& a, const std::vector<bf16_bits>& b) {
  EXPECT_EQ(a.size(), b.size());
  std::int64_t count = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) count += a[i] != b[i];
  return count;
}

class RopeShapes : public testing::TestWithParam<std::tuple<Shape, Pairing>> {
 protected:
  const Shape& shape() const { return std::get<0>(GetParam()); }
  Pairing pairing() const { return std::get<1>(GetParam()); }
};

TEST_P(RopeShapes, ReferenceIsRopeByDefinition) {
  const CaseLayouts layouts = layouts_for(pairing(), shape());
  const BufferSet buffers = rope_case()->make_buffers(layouts, shape().tokens, 7);
  const auto reference = rope_case()->reference(layouts);
  EXPECT_EQ(output_of(*reference, buffers), rope_by_definition(buffers, pairing(), shape()))
      << reference->name();
}

// The porting bug: a kernel built for the other pairing, fed these buffers. With one pair per
// head (D = 2) the two pairings are the same layout and nothing is misread.
TEST_P(RopeShapes, KernelBuiltForTheOtherPairingMisreads) {
  const Pairing other =
      pairing() == Pairing::half_split ? Pairing::interleaved : Pairing::half_split;
  const CaseLayouts right = layouts_for(pairing(), shape());
  const BufferSet buffers = rope_case()->make_buffers(right, shape().tokens, 11);
  const auto expected = output_of(*rope_case()->reference(right), buffers);
  const auto misread = output_of(*rope_case()->reference(layouts_for(other, shape())), buffers);
  if (shape().head_dim == 2)
    EXPECT_EQ(differing(misread, expected), 0);
  else  // every pair but each head's first is the wrong two elements
    EXPECT_GE(differing(misread, expected), static_cast<std::int64_t>(expected.size()) / 2);
  EXPECT_EQ(misread, rope_by_definition(buffers, other, shape()));
}

TEST_P(RopeShapes, EveryMutantDiffersFromTheReference) {
  const CaseLayouts layouts = layouts_for(pairing(), shape());
  const BufferSet buffers = rope_case()->make_buffers(layouts, shape().tokens, 3);
  const auto expected = output_of(*rope_case()->reference(layouts), buffers);
  ASSERT_GE(rope_case()->mutants().size(), 2u);
  for (const auto& [name, broken] : rope_case()->mutants()) {
    const auto mutant = rope_case()->mutant(name, layouts);
    ASSERT_NE(mutant, nullptr) << name;
    EXPECT_GT(differing(output_of(*mutant, buffers), expected), 0) << name << ": " << broken;
  }
}

std::string shape_label(const testing::TestParamInfo<RopeShapes::ParamType>& info) {
  const Shape& shape = std::get<0>(info.param);
  return pairing_name(std::get<1>(info.param)) + "_H" + std::to_string(shape.heads) + "_D" +
         std::to_string(shape.head_dim) + "_T" + std::to_string(shape.tokens);
}

INSTANTIATE_TEST_SUITE_P(Shapes, RopeShapes,
                         testing::Combine(testing::ValuesIn(kShapes),
                                          testing::Values(Pairing::half_split,
                                                          Pairing::interleaved)),
                         shape_label);

// Rows further apart than a row spans: the reference steps by the buffer's row stride.
TEST(RopeReference, PaddedRowsAreSteppedByTheirStride) {
  const Shape shape{3, 10, 4};
  for (Pairing pairing : {Pairing::half_split, Pairing::interleaved}) {
    const std::string name = pairing_name(pairing);
    const std::string padded = "  - name: token\n    stride: H*D + 3\n";
    CaseLayouts layouts = layouts_for(pairing, shape);
    layouts["x"] = edited_contract("rope/" + name + ".x.yaml", "  - name: token\n", padded, shape);
    layouts["out"] =
        edited_contract("rope/" + name + ".out.yaml", "  - name: token\n", padded, shape);
    const BufferSet buffers = rope_case()->make_buffers(layouts, shape.tokens, 5);
    ASSERT_EQ(buffers.at("x").row_stride, 33);
    EXPECT_EQ(output_of(*rope_case()->reference(layouts), buffers),
              rope_by_definition(buffers, pairing, shape))
        << name;
  }
}

TEST(RopeReference, RejectsAPositionOutsideTheTable) {
  const CaseLayouts layouts = layouts_for(Pairing::half_split, kShapes[2]);
  BufferSet buffers = rope_case()->make_buffers(layouts, 2, 1);
  buffers.at("positions").set_value(1, static_cast<double>(buffers.at("cos_sin").rows));
  EXPECT_THROW(rope_case()->reference(layouts)->run(buffers), std::runtime_error);
}

// The rule, and that the message names the buffer and the contract.
void expect_case_layout_error(const Case& rope, std::string_view buffer, const Contract& contract) {
  try {
    rope.validate_layout(buffer, contract);
    ADD_FAILURE() << contract.name << " accepted as " << buffer;
  } catch (const InputError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    const Diagnostic& diagnostic = error.diagnostics()[0];
    EXPECT_EQ(diagnostic.rule, "case-layout");
    EXPECT_NE(diagnostic.message.find("'" + std::string(buffer) + "'"), std::string::npos)
        << diagnostic.str();
    EXPECT_NE(diagnostic.message.find(contract.name), std::string::npos) << diagnostic.str();
    EXPECT_FALSE(diagnostic.fix.empty());
  }
}

TEST(RopeValidateLayout, AcceptsItsOwnContracts) {
  const auto rope = rope_case();
  for (Pairing pairing : {Pairing::half_split, Pairing::interleaved})
    for (const auto& [buffer, contract] : layouts_for(pairing, kShapes[2]))
      EXPECT_NO_THROW(rope->validate_layout(buffer, contract)) << buffer;
}

TEST(RopeValidateLayout, RejectsGdnContracts) {
  const auto rope = rope_case();
  expect_case_layout_error(*rope, "x", load_contract(contract_path("gdn/qwen3_5.qkvz.yaml")));
  expect_case_layout_error(*rope, "out", load_contract(contract_path("gdn/gdn_out.yaml")));
  expect_case_layout_error(*rope, "cos_sin", load_contract(contract_path("gdn/qwen3_5.ba.yaml")));
}

TEST(RopeValidateLayout, RejectsAWrongDtype) {
  const auto rope = rope_case();
  const Shape shape = kShapes[0];
  expect_case_layout_error(
      *rope, "x", edited_contract("rope/half_split.x.yaml", "dtype: bf16", "dtype: fp16", shape));
  expect_case_layout_error(
      *rope, "cos_sin", edited_contract("rope/cos_sin.yaml", "dtype: fp32", "dtype: bf16", shape));
}

TEST(RopeValidateLayout, RejectsContractsOfTheWrongBufferOrShape) {
  const auto rope = rope_case();
  const CaseLayouts layouts = layouts_for(Pairing::interleaved, kShapes[2]);
  expect_case_layout_error(*rope, "cos_sin", layouts.at("x"));
  expect_case_layout_error(*rope, "x", layouts.at("cos_sin"));
  expect_case_layout_error(*rope, "positions", layouts.at("x"));  // positions has no contract
  // The pair component outermost: X[c, p, h] has the right element count, not the right shape.
  expect_case_layout_error(*rope, "x",
                           edited_contract("rope/interleaved.x.yaml",
                                           "      - {name: h, size: H, stride: D}\n"
                                           "      - {name: p, size: P, stride: 2}\n"
                                           "      - {name: c, size: 2, stride: 1}\n",
                                           "      - {name: c, size: 2, stride: 1}\n"
                                           "      - {name: p, size: P, stride: 2}\n"
                                           "      - {name: h, size: H, stride: D}\n",
                                           kShapes[2]));
}

// validate_layout sees one buffer at a time; the runner checks the buffers agree with each other.
TEST(RopeValidateLayout, ReferenceRejectsLayoutsOfDifferentSizes) {
  CaseLayouts layouts = layouts_for(Pairing::half_split, Shape{3, 10, 1});
  layouts["cos_sin"] = load_contract(contract_path("rope/cos_sin.yaml"), sized(Shape{3, 12, 1}));
  EXPECT_THROW(rope_case()->reference(layouts), InputError);
  layouts = layouts_for(Pairing::half_split, Shape{3, 10, 1});
  layouts["out"] = load_contract(contract_path("rope/half_split.out.yaml"), sized(Shape{4, 10, 1}));
  EXPECT_THROW(rope_case()->reference(layouts), InputError);
  layouts.erase("out");
  EXPECT_THROW(rope_case()->reference(layouts), InputError);
}

TEST(RopeBuffers, DeterministicPerSeed) {
  const CaseLayouts layouts = layouts_for(Pairing::interleaved, kShapes[2]);
  const auto rope = rope_case();
  const BufferSet a = rope->make_buffers(layouts, 5, 42);
  const BufferSet b = rope->make_buffers(layouts, 5, 42);
  const BufferSet c = rope->make_buffers(layouts, 5, 43);
  for (const char* name : {"x", "cos_sin", "positions", "out"}) {
    EXPECT_EQ(a.at(name).bytes, b.at(name).bytes) << name;
    EXPECT_EQ(a.at(name).dtype, rope->buffer(name)->dtype) << name;
  }
  EXPECT_NE(a.at("x").bytes, c.at("x").bytes);
  EXPECT_NE(a.at("positions").bytes, c.at("positions").bytes);
}

TEST(RopeBuffers, PositionsAreDistinctRowsOfTheTableButNotZero) {
  const auto rope = rope_case();
  for (std::int64_t batch : {1, 7, 64, 100}) {
    const BufferSet buffers =
        rope->make_buffers(layouts_for(Pairing::half_split, kShapes[0]), batch, 9);
    const HostBuffer& positions = buffers.at("positions");
    ASSERT_EQ(positions.elements(), batch);
    std::set<std::int32_t> seen;
    for (std::int32_t position : positions.as<std::int32_t>()) {
      EXPECT_GE(position, 1);
      EXPECT_LT(position, buffers.at("cos_sin").rows);
      seen.insert(position);
    }
    EXPECT_EQ(static_cast<std::int64_t>(seen.size()), batch);
  }
}

// cos/sin of pos * 10000^(-2i/D) at i and P + i of each row; out zero; x zero where no element is.
TEST(RopeBuffers, TableHoldsTheStandardFrequencies) {
  const Shape shape{3, 10, 2};
  const BufferSet buffers =
      rope_case()->make_buffers(layouts_for(Pairing::half_split, shape), 2, 1);
  const HostBuffer& table = buffers.at("cos_sin");
  const std::int64_t P = shape.head_dim / 2;
  for (std::int64_t pos = 0; pos < table.rows; ++pos)
    for (std::int64_t i = 0; i < P; ++i) {
      const double angle = pos * std::pow(10000.0, -2.0 * i / shape.head_dim);
      EXPECT_NEAR(table.value(pos * table.row_stride + i), std::cos(angle), 1e-6);
      EXPECT_NEAR(table.value(pos * table.row_stride + P + i), std::sin(angle), 1e-6);
    }
  for (std::uint8_t byte : buffers.at("out").bytes) ASSERT_EQ(byte, 0);
}

TEST(RopeCase, DescribesItself) {
  const auto rope = rope_case();
  EXPECT_EQ(rope->name(), "rope");
  EXPECT_FALSE(rope->summary().empty());
  std::vector<std::string> names;
  for (const BufferSpec& spec : rope->buffers()) names.push_back(spec.name);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "cos_sin", "positions", "out"}));
  EXPECT_EQ(rope->buffer("positions")->contract, "");
  EXPECT_EQ(rope->buffer("out")->role, BufferRole::output);
  // Every default contract exists and fits its buffer.
  for (const BufferSpec& spec : rope->buffers())
    if (!spec.contract.empty())
      EXPECT_NO_THROW(rope->validate_layout(spec.name, load_contract(contract_path(spec.contract))))
          << spec.name;
  ASSERT_EQ(rope->abis().size(), 1u);
  EXPECT_EQ(rope->abis()[0].name, "rope_apply_v1");
  EXPECT_EQ(rope->abis()[0].buffers, names);
  EXPECT_EQ(rope->decoders(), (std::vector<std::string>{"dependence"}));
  EXPECT_EQ(rope->default_probe_buffer(), "x");
  EXPECT_EQ(rope->mutant("no_such_mutant", layouts_for(Pairing::half_split, kShapes[0])), nullptr);
  EXPECT_DOUBLE_EQ(rope->value_tolerance(), 1e-2);
}

TEST(RopeCase, RegisteredAmongTheBuiltinCases) {
  CaseRegistry registry;
  register_builtin_cases(registry);
  ASSERT_NE(registry.find("rope"), nullptr);
  EXPECT_EQ(registry.get("rope")->name(), "rope");
  bool listed = false;
  for (const auto& listed_case : registry.list()) listed |= listed_case->name() == "rope";
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace layoutcheck
