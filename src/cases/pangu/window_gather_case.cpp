#include "cases/pangu/window_gather_case.h"

#include "cases/pangu/pangu_buffers.h"
#include "layoutcheck/contract/gather_map.h"

namespace layoutcheck {
namespace {

// How a gather kernel can go wrong while claiming the contract's map.
enum class Fault {
  none,
  shift_on_wrong_axes,  // the lat and lon rolls swapped: lat by half a lon window, lon by half
                        // lat's
  padding_wrong_side,   // pad // 2 after instead of before (lat 91 -> 96: +3 / +2)
  minus_one_as_token,   // a -1 entry read as token 0 instead of writing zero
};

// The contract a faulty kernel's map was really built from.
Contract as_built(Contract windows, Fault fault) {
  std::vector<Dim>& dims = windows.fields.at(0).dims;
  if (fault == Fault::shift_on_wrong_axes && dims.size() == 4) {
    Dim& lat = dims[1];
    Dim& lon = dims[2];
    const std::int64_t lat_half = lat.modes.front().size / 2, lon_half = lon.modes.front().size / 2;
    lat.shift = lon_half % lat.padded_size();
    lon.shift = lat_half % lon.padded_size();
  }
  if (fault == Fault::padding_wrong_side)
    for (Dim& dim : dims) std::swap(dim.pad_before, dim.pad_after);
  return windows;
}

// A gather by the int32 map of the windows contract the kernel was built for, as the native
// kernel runs it: slot s of every batch row copies token map[s] of that row's grid, or zeros.
class MapGather : public CaseRunner {
 public:
  MapGather(const CaseLayouts& layouts, Fault fault)
      : fault_(fault), map_(make_gather_map(as_built(layouts.at("windows"), fault))) {}
  std::string name() const override { return "pangu-window-gather:cpu"; }
  void run(BufferSet& buffers) override {
    const HostBuffer& x = buffers.at("x");
    HostBuffer& windows = buffers.at("windows");
    const std::int64_t width = map_.token_width;
    for (std::int64_t row = 0; row < x.rows; ++row)
      for (std::size_t slot = 0; slot < map_.slots.size(); ++slot) {
        std::int32_t token = map_.slots[slot];
        if (token < 0 && fault_ == Fault::minus_one_as_token) token = 0;
        for (std::int64_t c = 0; c < width; ++c) {
          const std::int64_t to =
              row * windows.row_stride + static_cast<std::int64_t>(slot) * width + c;
          windows.set_bits(to, token < 0 ? 0 : x.bits(row * x.row_stride + token * width + c));
        }
      }
  }

 private:
  Fault fault_;
  GatherMap map_;
};

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
    };
  }
  std::vector<AbiSpec> abis() const override { return {}; }
  std::vector<std::string> decoders() const override { return {std::string(kDataMovementDecoder)}; }
  std::string default_probe_buffer() const override { return "x"; }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    return pangu::uniform_tokens(layouts, "x", "windows", batch, seed, 1.0);
  }

  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return std::make_unique<MapGather>(layouts, Fault::none);
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
    if (name == "shift_on_wrong_axes")
      return std::make_unique<MapGather>(layouts, Fault::shift_on_wrong_axes);
    if (name == "padding_wrong_side")
      return std::make_unique<MapGather>(layouts, Fault::padding_wrong_side);
    if (name == "minus_one_as_token")
      return std::make_unique<MapGather>(layouts, Fault::minus_one_as_token);
    return nullptr;
  }

  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    pangu::require_fp16("pangu-window-gather", buffer, contract);
    if (contract.fields.size() != 1 || contract.fields[0].dims.size() != 4)
      pangu::reject_layout("pangu-window-gather", buffer, contract,
                           "is not one field of [z, lat, lon, c]",
                           "describe the tokens as one field with dims z, lat, lon and c");
    if (buffer == "windows" && !contract.gather)
      pangu::reject_layout(
          "pangu-window-gather", buffer, contract, "declares no gather",
          "add gather: {field: x, token: c}, so the index map is generated and proven");
    if (buffer != "x" && buffer != "windows")
      pangu::reject_layout("pangu-window-gather", buffer, contract, "is not a buffer of this case",
                           "give contracts for x and windows");
  }
  double value_tolerance() const override { return 0; }  // a copy is bitwise
};

}  // namespace

std::shared_ptr<const Case> make_pangu_window_gather_case() {
  return std::make_shared<const WindowGatherCase>();
}

}  // namespace layoutcheck
