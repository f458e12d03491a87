#include "cases/pangu/window_map.h"

#include <algorithm>
#include <utility>

#include "cases/pangu/layer_norm.h"

namespace layoutcheck::pangu {

Contract windows_as_built(Contract windows, WindowFault fault) {
  std::vector<Dim>& dims = windows.fields.at(0).dims;
  if (fault == WindowFault::shift_on_wrong_axes && dims.size() == 4) {
    Dim& lat = dims[1];
    Dim& lon = dims[2];
    const std::int64_t lat_half = lat.modes.front().size / 2, lon_half = lon.modes.front().size / 2;
    lat.shift = lon_half % lat.padded_size();
    lon.shift = lat_half % lon.padded_size();
  }
  if (fault == WindowFault::padding_wrong_side)
    for (Dim& dim : dims) std::swap(dim.pad_before, dim.pad_after);
  if (fault == WindowFault::shift_not_undone)
    for (Dim& dim : dims) dim.shift = 0;
  return windows;
}

namespace {

class TokenMover : public CaseRunner {
 public:
  TokenMover(std::string name, TokenMove move) : name_(std::move(name)), move_(std::move(move)) {}
  std::string name() const override { return name_; }

  void run(BufferSet& buffers) override {
    const HostBuffer& from = buffers.at(move_.from);
    HostBuffer& to = buffers.at(move_.to);
    const std::int64_t width = move_.width;
    std::vector<fp16_bits> token(static_cast<std::size_t>(width)),
        normalised(static_cast<std::size_t>(width));
    for (std::int64_t row = 0; row < from.rows; ++row)
      for (std::size_t slot = 0; slot < move_.map.size(); ++slot) {
        std::int32_t source = move_.map[slot];
        if (source < 0 && move_.minus_one_as_token) source = 0;
        const std::int64_t at = row * to.row_stride + static_cast<std::int64_t>(slot) * width;
        if (source < 0) {
          for (std::int64_t c = 0; c < width; ++c) to.set_bits(at + c, 0);
          continue;
        }
        for (std::int64_t c = 0; c < width; ++c)
          token[static_cast<std::size_t>(c)] =
              static_cast<fp16_bits>(from.bits(row * from.row_stride + source * width + c));
        if (move_.normalise) layer_norm_row(token, normalised);
        const std::vector<fp16_bits>& written = move_.normalise ? normalised : token;
        for (std::int64_t c = 0; c < width; ++c)
          to.set_bits(at + c, written[static_cast<std::size_t>(c)]);
      }
  }

 private:
  std::string name_;
  TokenMove move_;
};

}  // namespace

std::unique_ptr<CaseRunner> make_token_mover(std::string name, TokenMove move) {
  return std::make_unique<TokenMover>(std::move(name), std::move(move));
}

BufferSpec map_buffer_spec(const std::string& description) {
  return {kMapBuffer, BufferRole::input, DType::i32, "", description};
}

HostBuffer map_buffer(const std::vector<std::int32_t>& entries) {
  HostBuffer buffer =
      make_host_buffer(kMapBuffer, DType::i32, static_cast<std::int64_t>(entries.size()));
  std::copy(entries.begin(), entries.end(), buffer.as<std::int32_t>().begin());
  return buffer;
}

}  // namespace layoutcheck::pangu
