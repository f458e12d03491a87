#include "cases/pangu/layer_norm_case.h"

#include <cmath>
#include <random>

#include "cases/pangu/layer_norm.h"
#include "cases/pangu/pangu_buffers.h"
#include "kernels/pangu/pangu_abi.h"

namespace layoutcheck {
namespace {

enum class LayerNormFault {
  none,
  rows_as_pairs,         // a kernel built for 2C: rows 2t and 2t+1 normalised as one
  partial_wave_dropped,  // statistics over 128 * floor(C / 128) channels: half2 lanes, one 64-wide
                         // wave a pass, the last partial pass left out
  one_pass_statistics,   // sum and sum of squares in one fp32 pass: cancels on a large mean
};

class LayerNormRunner : public CaseRunner {
 public:
  LayerNormRunner(const CaseLayouts& layouts, LayerNormFault fault)
      : width_(layouts.at("x").fields.at(0).elements()),
        x_offset_(layouts.at("x").fields.at(0).offset_of_linear(0)),
        out_offset_(layouts.at("out").fields.at(0).offset_of_linear(0)),
        fault_(fault) {}
  std::string name() const override { return "pangu-layernorm:cpu"; }

  void run(BufferSet& buffers) override {
    const HostBuffer& x = buffers.at("x");
    HostBuffer& out = buffers.at("out");
    const std::int64_t group = fault_ == LayerNormFault::rows_as_pairs ? 2 : 1;
    for (std::int64_t first = 0; first < x.rows; first += group) {
      const std::int64_t rows = std::min(group, x.rows - first);
      std::vector<fp16_bits> row, normalised(static_cast<std::size_t>(rows * width_));
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < width_; ++c)
          row.push_back(static_cast<fp16_bits>(x.bits((first + r) * x.row_stride + x_offset_ + c)));
      if (fault_ == LayerNormFault::partial_wave_dropped) {
        normalise_with_statistics_of(row, (width_ / 128) * 128, normalised);
      } else if (fault_ == LayerNormFault::one_pass_statistics) {
        normalise_in_one_pass(row, normalised);
      } else {
        pangu::layer_norm_row(row, normalised);
      }
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < width_; ++c)
          out.set_bits((first + r) * out.row_stride + out_offset_ + c,
                       normalised[static_cast<std::size_t>(r * width_ + c)]);
    }
  }

 private:
  static void normalise_in_one_pass(const std::vector<fp16_bits>& row,
                                    std::vector<fp16_bits>& out) {
    float sum = 0, squares = 0;
    for (fp16_bits value : row) {
      sum += fp16_to_float(value);
      squares += fp16_to_float(value) * fp16_to_float(value);
    }
    const float n = static_cast<float>(row.size()), mean = sum / n;
    const float variance = squares / n - mean * mean;
    const float inverse = 1.0f / std::sqrt(variance + static_cast<float>(pangu::kLayerNormEpsilon));
    for (std::size_t i = 0; i < row.size(); ++i)
      out[i] = float_to_fp16((fp16_to_float(row[i]) - mean) * inverse);
  }

  // The whole row normalised with the mean and spread of its first `counted` channels.
  static void normalise_with_statistics_of(const std::vector<fp16_bits>& row, std::int64_t counted,
                                           std::vector<fp16_bits>& out) {
    std::vector<fp16_bits> head(row.begin(), row.begin() + std::max<std::int64_t>(counted, 1));
    std::vector<fp16_bits> scaled(head.size());
    double mean = 0, spread = 0;
    for (fp16_bits value : head) mean += fp16_to_float(value);
    mean /= static_cast<double>(head.size());
    for (fp16_bits value : head)
      spread += (fp16_to_float(value) - mean) * (fp16_to_float(value) - mean);
    const double inverse =
        1.0 / std::sqrt(spread / static_cast<double>(head.size()) + pangu::kLayerNormEpsilon);
    for (std::size_t i = 0; i < row.size(); ++i)
      out[i] = float_to_fp16(static_cast<float>((fp16_to_float(row[i]) - mean) * inverse));
  }

  std::int64_t width_, x_offset_, out_offset_;
  LayerNormFault fault_;
};

class LayerNormCase : public Case {
 public:
  std::string name() const override { return "pangu-layernorm"; }
  std::string summary() const override {
    return "Pangu-Weather's LayerNorm without affine: rows of C fp16 channels, fp32 statistics";
  }
  std::vector<BufferSpec> buffers() const override {
    return {
        {"x", BufferRole::input, DType::fp16, "pangu/tokens.yaml", "tokens, one row each"},
        {"out", BufferRole::output, DType::fp16, "pangu/tokens.out.yaml",
         "the normalised tokens (no affine)"},
    };
  }
  std::vector<AbiSpec> abis() const override {
    return {{LAYOUTCHECK_PANGU_LAYER_NORM_ABI,
             "LayerNorm (no affine) every row of x into out",
             "pangu_abi.h",
             {"x", "out"}}};
  }
  std::vector<std::string> decoders() const override { return {std::string(kDependenceDecoder)}; }
  std::string default_probe_buffer() const override { return "x"; }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    return pangu::uniform_tokens(layouts, {"x"}, {"out"}, batch, seed, 2.0);
  }
  // Rows of mean 1000 and the smallest spread fp16 holds there (its step is 0.5: a spread of 0.01
  // would be a constant row): each value 1000 or 1000.5. Statistics as a sum and a sum of squares
  // in fp32 lose every digit of the spread.
  std::vector<ValueProbe> value_probes(const CaseLayouts& model, std::int64_t batch,
                                       std::uint64_t seed) const override {
    ValueProbe probe{"large-mean",
                     "rows of mean 1000 and spread 0.25 normalise wrongly: statistics that lose "
                     "the spread to cancellation (a one-pass sum of squares) fail here, and so "
                     "do statistics over other channels than the row's",
                     make_buffers(model, batch, seed), 2e-3};
    std::mt19937_64 rng(seed ^ 0x1000);
    HostBuffer& x = probe.buffers.at("x");
    for (std::int64_t i = 0; i < x.elements(); ++i) x.set_value(i, rng() % 2 ? 1000.5 : 1000.0);
    return {std::move(probe)};
  }

  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return std::make_unique<LayerNormRunner>(layouts, LayerNormFault::none);
  }
  std::vector<std::pair<std::string, std::string>> mutants() const override {
    return {
        {"rows_as_pairs", "built for twice the width: two rows normalised as one"},
        {"partial_wave_dropped",
         "statistics over 128 * floor(C / 128) channels: the last partial wave of half2 lanes "
         "left out (192 -> 128; at 384 and 768, whole waves, it is the correct kernel)"},
        {"one_pass_statistics", "mean and variance from one fp32 pass of sum and sum of squares"},
    };
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    if (name == "rows_as_pairs")
      return std::make_unique<LayerNormRunner>(layouts, LayerNormFault::rows_as_pairs);
    if (name == "partial_wave_dropped")
      return std::make_unique<LayerNormRunner>(layouts, LayerNormFault::partial_wave_dropped);
    if (name == "one_pass_statistics")
      return std::make_unique<LayerNormRunner>(layouts, LayerNormFault::one_pass_statistics);
    return nullptr;
  }
  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    if (buffer != "x" && buffer != "out")
      pangu::reject_layout("pangu-layernorm", buffer, contract, "is not a buffer of this case",
                           "give contracts for x and out");
    pangu::require_fp16("pangu-layernorm", buffer, contract);
    pangu::require_contiguous_row("pangu-layernorm", buffer, contract);
  }
  // The Pangu family's bench (`bench --case pangu`): its operators are this case's and its
  // neighbours' (add + LayerNorm, the gather, LayerNorm + gather) at both grid levels.
  std::optional<BenchDeclaration> bench() const override {
    return BenchDeclaration{
        "pangu",
        {},
        {{"generic", "the framework's path: general kernels, one per framework operator", false},
         {"native", "the specialised kernels (kernels/pangu/DESIGN.md)", false}},
        GateThresholds{}};
  }
  // Its knobs are the operators' real shapes, not batches, layers or steps.
  void validate_bench(const BenchRequest& request) const override {
    const BenchRequest defaults;
    if (request.batches != defaults.batches || request.layers != defaults.layers ||
        request.steps != defaults.steps || !request.sizes.empty() || request.overlapped_launches)
      throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                  "the pangu bench runs its operators at the real grid shapes: "
                                  "--batch, --layers, --steps, --set and --launch do not apply",
                                  "layoutcheck bench --case pangu [--replays N] [--warmup N] "
                                  "[--framework FIGURES.json]"});
  }

  // fp16 out: half an ulp of the output, and the kernels' fp32 statistics.
  double value_tolerance() const override { return 2e-3; }
};

}  // namespace

std::shared_ptr<const Case> make_pangu_layer_norm_case() {
  return std::make_shared<const LayerNormCase>();
}

}  // namespace layoutcheck
