#include "cases/gdn/gdn_case.h"

#include <cstring>

#include "cases/gdn/bench/gdn_bench_options.h"
#include "cases/gdn/probe/mutants.h"
#include "cases/gdn/random_problem.h"
#include "cases/gdn/reference_runner.h"
#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {
namespace {

template <class T>
HostBuffer flat_buffer(std::string name, DType dtype, const std::vector<T>& values,
                       std::int64_t rows) {
  HostBuffer buffer =
      make_host_buffer(std::move(name), dtype, static_cast<std::int64_t>(values.size()));
  buffer.rows = rows;
  buffer.row_stride = rows > 0 ? static_cast<std::int64_t>(values.size()) / rows : 0;
  if (!values.empty()) std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}

template <class T>
HostBuffer laid_out_buffer(std::string name, const Contract& contract, const std::vector<T>& values,
                           std::int64_t rows) {
  HostBuffer buffer = flat_buffer(std::move(name), contract.dtype, values, rows);
  buffer.row_stride = row_stride(contract);
  return buffer;
}

template <class T>
std::vector<T> values_of(const BufferSet& buffers, std::string_view name) {
  const HostBuffer& buffer = buffers.at(name);
  std::vector<T> values(buffer.bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), buffer.bytes.data(), buffer.bytes.size());
  return values;
}

GdnShape shape_of(const GdnLayouts& layouts) {
  return gdn_shape_from_symbols(layouts.qkvz);
}

class GdnCase : public Case {
 public:
  std::string name() const override { return "gdn"; }
  std::string summary() const override {
    return "Gated DeltaNet decode step (T = 1): causal conv, gates, recurrent state update, "
           "gated RMSNorm (Qwen3-Next / Qwen3.5)";
  }
  std::vector<BufferSpec> buffers() const override {
    return {
        {"qkvz", BufferRole::input, DType::bf16, "gdn/qwen3_5.qkvz.yaml",
         "projection output: Q, K, V, Z per token"},
        {"ba", BufferRole::input, DType::bf16, "gdn/qwen3_5.ba.yaml",
         "beta logits and decay inputs per token"},
        {"state", BufferRole::in_place, DType::fp32, "gdn/state.hkv.yaml",
         "recurrent state per sequence, [HV, K, V] or [HV, V, K]"},
        {"conv_state", BufferRole::in_place, DType::bf16, "gdn/conv_state.yaml",
         "the last W-1 raw conv inputs per channel"},
        {"conv_weight", BufferRole::input, DType::bf16, "", "[C][W], channel order [Q|K|V]"},
        {"A_log", BufferRole::input, DType::fp32, "", "[HV]"},
        {"dt_bias", BufferRole::input, DType::fp32, "", "[HV]"},
        {"norm_weight", BufferRole::input, DType::bf16, "", "[V], used directly"},
        {"out", BufferRole::output, DType::bf16, "gdn/gdn_out.yaml", "[HV][V] per token"},
    };
  }
  std::vector<AbiSpec> abis() const override {
    return {{"gdn_decode_v1",
             "the whole decode step: conv, gates, recurrent update, norm",
             "gdn_abi.h",
             {"qkvz", "ba", "conv_state", "state", "conv_weight", "A_log", "dt_bias", "norm_weight",
              "out"}}};
  }
  std::vector<std::string> decoders() const override {
    return {std::string(kGdnDecoder), std::string(kDependenceDecoder)};
  }
  std::optional<BenchDeclaration> bench() const override {
    return BenchDeclaration{
        "gdn-decode",
        {"H", "HV", "K", "V", "W"},
        {{kGdnBaseline,
          "the framework's path: conv, gating, recurrent update, norm as separate "
          "kernels over the flat layout",
          false},
         {kGdnAdapterUpstream, "a layout adapter, then the kernel built for the interleaved layout",
          false},
         {kGdnNative, "the fused kernel built for the flat layout", false},
         {kGdnUpstreamDirect, "the interleaved kernel fed flat buffers (must come out INVALID)",
          true}},
        GateThresholds{}};  // the bench's own (gdn_decode_bench.cpp)
  }
  void validate_bench(const BenchRequest& request) const override {
    GdnBenchOptions options = gdn_bench_options(request);
    validate_bench_options(options);
  }
  std::string default_probe_buffer() const override { return "qkvz"; }
  std::string buffer_described_by(const Contract& contract) const override {
    return contract.buffer == "ssm_state" ? "state" : contract.buffer;
  }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    const GdnLayouts gdn = gdn_layouts_of(layouts);
    BufferSet buffers = gdn_buffers(make_random_step_inputs(shape_of(gdn), gdn, batch, seed), gdn);
    return buffers;
  }
  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    const GdnLayouts gdn = gdn_layouts_of(layouts);
    return std::make_unique<GdnCaseRunner>(std::make_unique<ReferenceRunner>(shape_of(gdn), gdn),
                                           gdn);
  }
  std::vector<std::pair<std::string, std::string>> mutants() const override {
    std::vector<std::pair<std::string, std::string>> listed;
    for (MutantKind kind : all_mutant_kinds()) {
      const MutantInfo info = describe_mutant(kind);
      listed.emplace_back(info.name, info.description);
    }
    return listed;
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    const GdnLayouts gdn = gdn_layouts_of(layouts);
    for (MutantKind kind : all_mutant_kinds())
      if (describe_mutant(kind).name == name)
        return std::make_unique<GdnCaseRunner>(make_mutant(kind, shape_of(gdn), gdn).kernel, gdn);
    return nullptr;
  }
  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    if (buffer == "qkvz" || buffer == "ba" || buffer == "state")
      validate_gdn_layout(contract, gdn_buffer_from_name(buffer), gdn_shape_from_symbols(contract));
  }
};

}  // namespace

std::shared_ptr<const Case> make_gdn_case() {
  return std::make_shared<GdnCase>();
}

GdnLayouts gdn_layouts_of(const CaseLayouts& layouts) {
  GdnLayouts gdn;
  for (GdnBuffer buffer : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state}) {
    const std::string name(gdn_buffer_name(buffer));
    const auto found = layouts.find(name);
    if (found == layouts.end())
      throw InputError(Diagnostic{SourceLocation{"<case gdn>"}, Severity::error, "case-layout",
                                  "no contract for GDN buffer '" + name + "'",
                                  "give the qkvz, ba and state contracts"});
    layout_of(gdn, buffer) = found->second;
  }
  validate_gdn_layouts(gdn, shape_of(gdn));
  return gdn;
}

BufferSet gdn_buffers(const GdnStepInputs& inputs, const GdnLayouts& layouts) {
  const std::int64_t batch = inputs.batch;
  BufferSet buffers;
  buffers.add(laid_out_buffer("qkvz", layouts.qkvz, inputs.qkvz, batch));
  buffers.at("qkvz").row_stride = inputs.qkvz_row_stride;
  buffers.add(laid_out_buffer("ba", layouts.ba, inputs.ba, batch));
  buffers.at("ba").row_stride = inputs.ba_row_stride;
  buffers.add(laid_out_buffer("state", layouts.state, inputs.state, batch));
  buffers.add(flat_buffer("conv_state", DType::bf16, inputs.conv_state, batch));
  buffers.add(flat_buffer("conv_weight", DType::bf16, inputs.weights.conv_weight, 1));
  buffers.add(flat_buffer("A_log", DType::fp32, inputs.weights.A_log, 1));
  buffers.add(flat_buffer("dt_bias", DType::fp32, inputs.weights.dt_bias, 1));
  buffers.add(flat_buffer("norm_weight", DType::bf16, inputs.weights.norm_weight, 1));
  const GdnShape& shape = inputs.shape;
  buffers.add(flat_buffer(
      "out", DType::bf16,
      std::vector<bf16_bits>(static_cast<std::size_t>(batch * shape.HV * shape.V)), batch));
  return buffers;
}

GdnStepInputs gdn_step_inputs(const BufferSet& buffers, const GdnLayouts& layouts) {
  GdnStepInputs inputs;
  inputs.shape = shape_of(layouts);
  inputs.batch = buffers.at("qkvz").rows;
  inputs.qkvz = values_of<bf16_bits>(buffers, "qkvz");
  inputs.qkvz_row_stride = buffers.at("qkvz").row_stride;
  inputs.ba = values_of<bf16_bits>(buffers, "ba");
  inputs.ba_row_stride = buffers.at("ba").row_stride;
  inputs.conv_state = values_of<bf16_bits>(buffers, "conv_state");
  inputs.state = values_of<float>(buffers, "state");
  inputs.weights.conv_weight = values_of<bf16_bits>(buffers, "conv_weight");
  inputs.weights.A_log = values_of<float>(buffers, "A_log");
  inputs.weights.dt_bias = values_of<float>(buffers, "dt_bias");
  inputs.weights.norm_weight = values_of<bf16_bits>(buffers, "norm_weight");
  return inputs;
}

void store_gdn_outputs(const GdnStepOutputs& outputs, BufferSet& buffers) {
  const auto store = [&](std::string_view name, const auto& values) {
    HostBuffer& buffer = buffers.at(name);
    const std::size_t bytes = values.size() * sizeof(values[0]);
    if (bytes != buffer.bytes.size())
      throw std::runtime_error("GDN runner wrote " + std::to_string(bytes) + " bytes of '" +
                               std::string(name) + "', " + std::to_string(buffer.bytes.size()) +
                               " expected");
    if (bytes) std::memcpy(buffer.bytes.data(), values.data(), bytes);
  };
  store("out", outputs.out);
  store("conv_state", outputs.conv_state);
  store("state", outputs.state);
}

GdnCaseRunner::GdnCaseRunner(std::unique_ptr<GdnRunner> runner, GdnLayouts layouts)
    : runner_(std::move(runner)), layouts_(std::move(layouts)) {}

void GdnCaseRunner::run(BufferSet& buffers) {
  store_gdn_outputs(runner_->step(gdn_step_inputs(buffers, layouts_)), buffers);
}

}  // namespace layoutcheck
