#include "cases/gdn/random_problem.h"

#include <cmath>
#include <limits>
#include <random>

namespace layoutcheck {
namespace {

class Draw {
 public:
  explicit Draw(std::uint64_t seed) : engine_(seed) {}
  double normal(double sigma) { return std::normal_distribution<double>(0.0, sigma)(engine_); }
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  bool coin() { return std::bernoulli_distribution(0.5)(engine_); }

  std::vector<bf16_bits> normal_bf16(std::int64_t count, double sigma) {
    std::vector<bf16_bits> values(static_cast<std::size_t>(count));
    for (bf16_bits& value : values) value = float_to_bf16(static_cast<float>(normal(sigma)));
    return values;
  }

 private:
  std::mt19937_64 engine_;
};

// Copies rows of a logical field into a laid-out buffer through the contract's field.
template <class T>
void place_field(const Contract& contract, const char* name, const std::vector<T>& logical,
                 std::int64_t batch, std::vector<T>& buffer) {
  const Field& field = *contract.find_field(name);
  const std::int64_t stride = row_stride(contract), count = field.elements();
  for (std::int64_t row = 0; row < batch; ++row) {
    T* target = buffer.data() + row * stride;
    const T* source = logical.data() + row * count;
    field.for_each_offset(
        [&](std::int64_t linear, std::int64_t offset) { target[offset] = source[linear]; });
  }
}

template <class T>
std::vector<T> empty_rows(const Contract& contract, std::int64_t batch, T fill) {
  return std::vector<T>(
      static_cast<std::size_t>((batch - 1) * row_stride(contract) + contract.row_size), fill);
}

}  // namespace

GdnWeights make_random_weights(const GdnShape& shape, std::uint64_t seed) {
  Draw draw(seed ^ 0x9e3779b97f4a7c15ull);  // independent of the activations' stream
  GdnWeights weights;
  weights.conv_weight.resize(static_cast<std::size_t>(shape.conv_channels() * shape.W));
  for (bf16_bits& weight : weights.conv_weight) {
    const double magnitude = draw.uniform(0.25, 0.75);
    weight = float_to_bf16(static_cast<float>(draw.coin() ? magnitude : -magnitude));
  }
  for (std::int64_t hv = 0; hv < shape.HV; ++hv) {
    weights.A_log.push_back(static_cast<float>(draw.uniform(-2.0, 1.0)));
    weights.dt_bias.push_back(static_cast<float>(draw.uniform(-3.0, 0.0)));
  }
  for (std::int64_t v = 0; v < shape.V; ++v)
    weights.norm_weight.push_back(float_to_bf16(static_cast<float>(draw.uniform(0.5, 1.5))));
  return weights;
}

GdnLogicalInputs make_random_logical_inputs(const GdnShape& shape, std::int64_t batch,
                                            std::uint64_t seed) {
  Draw draw(seed);
  GdnLogicalInputs logical;
  logical.shape = shape;
  logical.batch = batch;
  logical.q = draw.normal_bf16(batch * shape.H * shape.K, 1.0);
  logical.k = draw.normal_bf16(batch * shape.H * shape.K, 1.0);
  logical.v = draw.normal_bf16(batch * shape.HV * shape.V, 1.0);
  logical.z = draw.normal_bf16(batch * shape.HV * shape.V, 1.0);
  logical.b = draw.normal_bf16(batch * shape.HV, 1.0);
  logical.a = draw.normal_bf16(batch * shape.HV, 1.0);
  logical.conv_state = draw.normal_bf16(batch * shape.conv_channels() * (shape.W - 1), 1.0);
  logical.state.resize(static_cast<std::size_t>(batch * shape.state_elements()));
  for (float& value : logical.state) value = static_cast<float>(draw.normal(0.5));
  logical.weights = make_random_weights(shape, seed);
  return logical;
}

std::vector<bf16_bits> lay_out_qkvz(const GdnLogicalInputs& logical, const Contract& qkvz) {
  std::vector<bf16_bits> buffer = empty_rows(qkvz, logical.batch, kUnusedBf16);
  place_field(qkvz, "Q", logical.q, logical.batch, buffer);
  place_field(qkvz, "K", logical.k, logical.batch, buffer);
  place_field(qkvz, "V", logical.v, logical.batch, buffer);
  place_field(qkvz, "Z", logical.z, logical.batch, buffer);
  return buffer;
}

std::vector<bf16_bits> lay_out_ba(const GdnLogicalInputs& logical, const Contract& ba) {
  std::vector<bf16_bits> buffer = empty_rows(ba, logical.batch, kUnusedBf16);
  place_field(ba, "B", logical.b, logical.batch, buffer);
  place_field(ba, "A", logical.a, logical.batch, buffer);
  return buffer;
}

std::vector<float> lay_out_state(const GdnLogicalInputs& logical, const Contract& state) {
  std::vector<float> buffer =
      empty_rows(state, logical.batch, std::numeric_limits<float>::quiet_NaN());
  place_field(state, "S", logical.state, logical.batch, buffer);
  return buffer;
}

GdnStepInputs lay_out(const GdnLogicalInputs& logical, const GdnLayouts& layouts) {
  GdnStepInputs inputs;
  inputs.shape = logical.shape;
  inputs.batch = logical.batch;
  inputs.qkvz = lay_out_qkvz(logical, layouts.qkvz);
  inputs.qkvz_row_stride = row_stride(layouts.qkvz);
  inputs.ba = lay_out_ba(logical, layouts.ba);
  inputs.ba_row_stride = row_stride(layouts.ba);
  inputs.conv_state = logical.conv_state;
  inputs.state = lay_out_state(logical, layouts.state);
  inputs.weights = logical.weights;
  return inputs;
}

GdnStepInputs make_random_step_inputs(const GdnShape& shape, const GdnLayouts& layouts,
                                      std::int64_t batch, std::uint64_t seed) {
  validate_gdn_layouts(layouts, shape);
  return lay_out(make_random_logical_inputs(shape, batch, seed), layouts);
}

}  // namespace layoutcheck
