#include "cases/pangu/layer_norm_gather_case.h"

#include "cases/pangu/pangu_buffers.h"
#include "cases/pangu/window_map.h"
#include "kernels/pangu/pangu_abi.h"
#include "layoutcheck/contract/gather_map.h"

namespace layoutcheck {
namespace {

using pangu::WindowFault;

std::unique_ptr<CaseRunner> normalising_gather(const CaseLayouts& layouts, WindowFault fault) {
  const GatherMap map = make_gather_map(pangu::windows_as_built(layouts.at("windows"), fault));
  return pangu::make_token_mover(
      "pangu-layernorm-gather:cpu",
      {"x", "windows", map.slots, map.token_width, false, /*normalise=*/true});
}

class LayerNormGatherCase : public Case {
 public:
  std::string name() const override { return "pangu-layernorm-gather"; }
  std::string summary() const override {
    return "Pangu-Weather's LayerNorm fused with the window gather: each slot the normalised "
           "token its map names, padding zero";
  }
  std::vector<BufferSpec> buffers() const override {
    return {
        {"x", BufferRole::input, DType::fp16, "pangu/grid.yaml",
         "the token grid, [batch][Z, lat, lon] tokens of C channels"},
        {"windows", BufferRole::output, DType::fp16, "pangu/windows.shifted.yaml",
         "the normalised tokens window by window; padding slots zero"},
        pangu::map_buffer_spec("the int32 map generated from the windows contract: per slot the "
                               "grid token it normalises, -1 writes zero"),
    };
  }
  std::vector<AbiSpec> abis() const override {
    return {{LAYOUTCHECK_PANGU_WINDOW_GATHER_ABI,
             "LayerNorm each slot's grid token into windows (the normalised grid is never "
             "written whole), zeros where the map is -1",
             "pangu_abi.h",
             {"x", "windows", pangu::kMapBuffer}}};
  }
  std::vector<std::string> decoders() const override { return {std::string(kDependenceDecoder)}; }
  std::string default_probe_buffer() const override { return "x"; }
  std::string buffer_described_by(const Contract& contract) const override {
    return pangu::window_buffer_of(contract);
  }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    BufferSet buffers = pangu::uniform_tokens(layouts, {"x"}, {"windows"}, batch, seed, 2.0);
    buffers.add(pangu::map_buffer(make_gather_map(layouts.at("windows")).slots));
    return buffers;
  }
  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return normalising_gather(layouts, WindowFault::none);
  }
  std::vector<std::pair<std::string, std::string>> mutants() const override {
    return {
        {"shift_on_wrong_axes", "rolls lat by half the lon window and lon by half the lat one"}};
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    if (name == "shift_on_wrong_axes")
      return normalising_gather(layouts, WindowFault::shift_on_wrong_axes);
    return nullptr;
  }
  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    if (buffer != "x" && buffer != "windows")
      pangu::reject_layout("pangu-layernorm-gather", buffer, contract,
                           "is not a buffer of this case", "give contracts for x and windows");
    pangu::require_token_grid("pangu-layernorm-gather", buffer, contract, buffer == "windows");
  }
  double value_tolerance() const override { return 2e-3; }  // as pangu-layernorm
};

}  // namespace

std::shared_ptr<const Case> make_pangu_layer_norm_gather_case() {
  return std::make_shared<const LayerNormGatherCase>();
}

}  // namespace layoutcheck
