#include "cases/pangu/window_reverse_case.h"

#include "cases/pangu/pangu_buffers.h"
#include "cases/pangu/window_map.h"
#include "kernels/pangu/pangu_abi.h"
#include "layoutcheck/contract/gather_map.h"

namespace layoutcheck {
namespace {

using pangu::WindowFault;

// Grid token t of every batch row copies slot reverse[t] of that row's windows: the forward map
// of the contract the kernel was built for, reversed.
std::unique_ptr<CaseRunner> map_reverse(const CaseLayouts& layouts, WindowFault fault) {
  const GatherMap forward = make_gather_map(pangu::windows_as_built(layouts.at("windows"), fault));
  return pangu::make_token_mover("pangu-window-reverse:cpu", {"windows", "x", reverse_map(forward),
                                                              forward.token_width, false, false});
}

class WindowReverseCase : public Case {
 public:
  std::string name() const override { return "pangu-window-reverse"; }
  std::string summary() const override {
    return "Pangu-Weather's window reverse: windows back onto the grid, padding cropped, shift "
           "undone (int32 map)";
  }
  std::vector<BufferSpec> buffers() const override {
    return {
        {"windows", BufferRole::input, DType::fp16, "pangu/windows.shifted.yaml",
         "the tokens window by window, as attention leaves them"},
        {"x", BufferRole::output, DType::fp16, "pangu/grid.yaml",
         "the token grid, [batch][Z, lat, lon] tokens of C channels"},
        pangu::map_buffer_spec("the int32 reverse map generated from the windows contract: per "
                               "grid token the slot holding it (crop + un-shift)"),
    };
  }
  std::vector<AbiSpec> abis() const override {
    return {{LAYOUTCHECK_PANGU_WINDOW_REVERSE_ABI,
             "copy each grid token back from its slot (the map's, or one the port's own index "
             "arithmetic finds): the padding cropped, the shift undone",
             "pangu_abi.h",
             {"windows", "x", pangu::kMapBuffer}}};
  }
  std::vector<std::string> decoders() const override { return {std::string(kDataMovementDecoder)}; }
  std::string default_probe_buffer() const override { return "windows"; }
  std::string buffer_described_by(const Contract& contract) const override {
    return pangu::window_buffer_of(contract);
  }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    BufferSet buffers = pangu::uniform_tokens(layouts, {"windows"}, {"x"}, batch, seed, 1.0);
    buffers.add(pangu::map_buffer(reverse_map(make_gather_map(layouts.at("windows")))));
    return buffers;
  }
  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return map_reverse(layouts, WindowFault::none);
  }
  std::vector<std::pair<std::string, std::string>> mutants() const override {
    return {
        {"shift_not_undone", "crops the padding but leaves the roll in place"},
        {"padding_wrong_side", "crops pad // 2 after each axis instead of before"},
    };
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    if (name == "shift_not_undone") return map_reverse(layouts, WindowFault::shift_not_undone);
    if (name == "padding_wrong_side") return map_reverse(layouts, WindowFault::padding_wrong_side);
    return nullptr;
  }
  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    if (buffer != "x" && buffer != "windows")
      pangu::reject_layout("pangu-window-reverse", buffer, contract, "is not a buffer of this case",
                           "give contracts for windows and x");
    pangu::require_token_grid("pangu-window-reverse", buffer, contract, buffer == "windows");
  }
  double value_tolerance() const override { return 0; }  // a copy is bitwise
};

}  // namespace

std::shared_ptr<const Case> make_pangu_window_reverse_case() {
  return std::make_shared<const WindowReverseCase>();
}

}  // namespace layoutcheck
