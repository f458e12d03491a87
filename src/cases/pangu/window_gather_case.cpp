#include "cases/pangu/window_gather_case.h"

#include "cases/pangu/pangu_buffers.h"
#include "cases/pangu/window_map.h"
#include "kernels/pangu/pangu_abi.h"
#include "layoutcheck/contract/gather_map.h"

namespace layoutcheck {
namespace {

using pangu::WindowFault;

// A gather by the int32 map of the windows contract the kernel was built for, as the native
// kernel runs it: slot s of every batch row copies token map[s] of that row's grid, or zeros.
std::unique_ptr<CaseRunner> map_gather(const CaseLayouts& layouts, WindowFault fault,
                                       bool minus_one_as_token = false) {
  const GatherMap map = make_gather_map(pangu::windows_as_built(layouts.at("windows"), fault));
  return pangu::make_token_mover(
      "pangu-window-gather:cpu",
      {"x", "windows", map.slots, map.token_width, minus_one_as_token, /*normalise=*/false});
}

class WindowGatherCase : public Case {
 public:
  std::string name() const override { return "pangu-window-gather"; }
  std::string summary() const override {
    return "Pangu-Weather's window partition: pad, roll, gather window by window (int32 map)";
  }
  std::vector<BufferSpec> buffers() const override {
    return {
        {"x", BufferRole::input, DType::fp16, "pangu/grid.yaml",
         "the token grid, [batch][Z, lat, lon] tokens of C channels"},
        {"windows", BufferRole::output, DType::fp16, "pangu/windows.yaml",
         "the tokens window by window; padding slots zero"},
        pangu::map_buffer_spec("the int32 map generated from the windows contract: per slot the "
                               "grid token it reads, -1 writes zero"),
    };
  }
  std::vector<AbiSpec> abis() const override {
    return {{LAYOUTCHECK_PANGU_WINDOW_GATHER_ABI,
             "copy each slot's grid token (the map's, or one the port's own index arithmetic "
             "finds) into windows, zeros where it is -1",
             "pangu_abi.h",
             {"x", "windows", pangu::kMapBuffer}}};
  }
  std::vector<std::string> decoders() const override { return {std::string(kDataMovementDecoder)}; }
  std::string default_probe_buffer() const override { return "x"; }
  std::string buffer_described_by(const Contract& contract) const override {
    return pangu::window_buffer_of(contract);
  }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    BufferSet buffers = pangu::uniform_tokens(layouts, {"x"}, {"windows"}, batch, seed, 1.0);
    buffers.add(pangu::map_buffer(make_gather_map(layouts.at("windows")).slots));
    return buffers;
  }

  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return map_gather(layouts, WindowFault::none);
  }
  std::vector<std::pair<std::string, std::string>> mutants() const override {
    return {
        {"shift_on_wrong_axes", "rolls lat by half the lon window and lon by half the lat one"},
        {"padding_wrong_side", "pads pad // 2 after each axis instead of before"},
        {"minus_one_as_token", "reads a padding slot's -1 as token 0 instead of writing zero"},
    };
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    if (name == "shift_on_wrong_axes") return map_gather(layouts, WindowFault::shift_on_wrong_axes);
    if (name == "padding_wrong_side") return map_gather(layouts, WindowFault::padding_wrong_side);
    if (name == "minus_one_as_token") return map_gather(layouts, WindowFault::none, true);
    return nullptr;
  }

  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    if (buffer != "x" && buffer != "windows")
      pangu::reject_layout("pangu-window-gather", buffer, contract, "is not a buffer of this case",
                           "give contracts for x and windows");
    pangu::require_token_grid("pangu-window-gather", buffer, contract, buffer == "windows");
  }
  double value_tolerance() const override { return 0; }  // a copy is bitwise
};

}  // namespace

std::shared_ptr<const Case> make_pangu_window_gather_case() {
  return std::make_shared<const WindowGatherCase>();
}

}  // namespace layoutcheck
