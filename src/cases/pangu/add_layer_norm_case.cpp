#include "cases/pangu/add_layer_norm_case.h"

#include <cmath>
#include <random>

#include "cases/pangu/layer_norm.h"
#include "cases/pangu/pangu_buffers.h"
#include "kernels/pangu/pangu_abi.h"

namespace layoutcheck {
namespace {

constexpr const char* kCase = "pangu-add-layernorm";

class AddLayerNormRunner : public CaseRunner {
 public:
  // fp32_residual: the statistics and the normalised row of the fp32 sum, never rounded (the
  // residual written is still rounded: it is an fp16 buffer).
  AddLayerNormRunner(const CaseLayouts& layouts, bool fp32_residual)
      : width_(layouts.at("residual").fields.at(0).elements()), fp32_residual_(fp32_residual) {}
  std::string name() const override { return std::string(kCase) + ":cpu"; }

  void run(BufferSet& buffers) override {
    const HostBuffer& residual = buffers.at("residual");
    const HostBuffer& branch = buffers.at("branch");
    HostBuffer& residual_out = buffers.at("residual_out");
    HostBuffer& out = buffers.at("out");
    const auto width = static_cast<std::size_t>(width_);
    std::vector<fp16_bits> a(width), b(width), sum(width), normalised(width);
    for (std::int64_t row = 0; row < residual.rows; ++row) {
      for (std::size_t c = 0; c < width; ++c) {
        a[c] = static_cast<fp16_bits>(residual.bits(row * residual.row_stride + c));
        b[c] = static_cast<fp16_bits>(branch.bits(row * branch.row_stride + c));
      }
      pangu::add_layer_norm_row(a, b, sum, normalised);
      if (fp32_residual_) normalise_exact_sum(a, b, normalised);
      for (std::size_t c = 0; c < width; ++c) {
        residual_out.set_bits(row * residual_out.row_stride + c, sum[c]);
        out.set_bits(row * out.row_stride + c, normalised[c]);
      }
    }
  }

 private:
  static void normalise_exact_sum(const std::vector<fp16_bits>& a, const std::vector<fp16_bits>& b,
                                  std::vector<fp16_bits>& out) {
    std::vector<float> sum(a.size());
    double mean = 0, spread = 0;
    for (std::size_t c = 0; c < a.size(); ++c) {
      sum[c] = fp16_to_float(a[c]) + fp16_to_float(b[c]);
      mean += sum[c];
    }
    mean /= static_cast<double>(a.size());
    for (float s : sum) spread += (s - mean) * (s - mean);
    const double inverse =
        1.0 / std::sqrt(spread / static_cast<double>(a.size()) + pangu::kLayerNormEpsilon);
    for (std::size_t c = 0; c < a.size(); ++c)
      out[c] = float_to_fp16(static_cast<float>((sum[c] - mean) * inverse));
  }

  std::int64_t width_;
  bool fp32_residual_;
};

class AddLayerNormCase : public Case {
 public:
  std::string name() const override { return kCase; }
  std::string summary() const override {
    return "Pangu-Weather's residual add + LayerNorm: the residual rounded to fp16, the "
           "statistics of the rounded value";
  }
  std::vector<BufferSpec> buffers() const override {
    return {
        {"residual", BufferRole::input, DType::fp16, "pangu/residual.yaml",
         "the residual stream, one token per row"},
        {"branch", BufferRole::input, DType::fp16, "pangu/branch.yaml",
         "the branch added to it (attention or MLP out)"},
        {"residual_out", BufferRole::output, DType::fp16, "pangu/residual.out.yaml",
         "fp16(residual + branch), bitwise"},
        {"out", BufferRole::output, DType::fp16, "pangu/tokens.out.yaml",
         "LayerNorm of residual_out (no affine)"},
    };
  }
  std::vector<AbiSpec> abis() const override {
    return {{LAYOUTCHECK_PANGU_ADD_LAYER_NORM_ABI,
             "residual_out = fp16(residual + branch), out = LayerNorm(residual_out)",
             "pangu_abi.h",
             {"residual", "branch", "residual_out", "out"}}};
  }
  std::vector<std::string> decoders() const override { return {std::string(kDependenceDecoder)}; }
  std::string default_probe_buffer() const override { return "residual"; }
  std::vector<std::string> port_probe_buffers() const override { return {"residual", "branch"}; }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    return pangu::uniform_tokens(layouts, {"residual", "branch"}, {"residual_out", "out"}, batch,
                                 seed, 2.0);
  }

  // The residual a few fp16 steps around 2048 (steps of 1 below, 2 above), the branch within
  // ±0.45: every rounded sum is the residual itself, while the fp32 sums move each value by up to
  // a tenth of the row's spread.
  std::vector<ValueProbe> value_probes(const CaseLayouts& model, std::int64_t batch,
                                       std::uint64_t seed) const override {
    ValueProbe probe{"rounding-point",
                     "on a branch below half an fp16 step of the residual the normalised rows "
                     "differ: the statistics are not those of the rounded fp16(residual + branch)",
                     make_buffers(model, batch, seed), 2e-3};
    std::mt19937_64 rng(seed ^ 0x5eed);
    HostBuffer& residual = probe.buffers.at("residual");
    HostBuffer& branch = probe.buffers.at("branch");
    for (std::int64_t i = 0; i < residual.elements(); ++i) {
      residual.set_value(i, 2042.0 + 4.0 * static_cast<double>(rng() % 4));
      branch.set_value(i, (rng() % 2 ? 0.45 : -0.45) * (static_cast<double>(rng() % 8) + 1) / 8);
    }
    return {std::move(probe)};
  }

  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return std::make_unique<AddLayerNormRunner>(layouts, false);
  }
  std::vector<std::pair<std::string, std::string>> mutants() const override {
    return {{"residual_in_fp32",
             "adds in fp32 and normalises the sum never rounded (the residual written is "
             "rounded)"}};
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    if (name == "residual_in_fp32") return std::make_unique<AddLayerNormRunner>(layouts, true);
    return nullptr;
  }
  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    if (!this->buffer(buffer))
      pangu::reject_layout(kCase, buffer, contract, "is not a buffer of this case",
                           "give contracts for residual, branch, residual_out and out");
    pangu::require_fp16(kCase, buffer, contract);
    pangu::require_contiguous_row(kCase, buffer, contract);
  }
  double value_tolerance() const override { return 2e-3; }  // as pangu-layernorm
  // The probed element far above the other input's random range (±2): each output of its row
  // then moves by many fp16 steps, so which outputs a probe changes never hinges on one rounding
  // (with 2.5, a kernel's fp32 statistics against the reference's fp64 now and then leave one
  // output of a row unchanged on one side only, read as another dependence).
  std::pair<double, double> one_hot_values(std::string_view /*buffer*/) const override {
    return {0.5, 32.5};
  }
};

}  // namespace

std::shared_ptr<const Case> make_pangu_add_layer_norm_case() {
  return std::make_shared<const AddLayerNormCase>();
}

}  // namespace layoutcheck
