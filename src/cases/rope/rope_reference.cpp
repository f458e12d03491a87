#include "cases/rope/rope_reference.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "cases/rope/rope_layout.h"

namespace layoutcheck::rope {
namespace {

std::string runner_name(const CaseLayouts& layouts, Fault fault) {
  const std::string built_for =
      layouts.at("x").name + ", " + layouts.at("cos_sin").name + " -> " + layouts.at("out").name;
  switch (fault) {
    case Fault::none:
      return "reference (" + built_for + ")";
    case Fault::rotate_backwards:
      return "mutant rotate_backwards (" + built_for + ")";
    case Fault::positions_ignored:
      return "mutant positions_ignored (" + built_for + ")";
  }
  return "?";
}

// A buffer too small for its rows would be read out of bounds: refuse it instead.
void require_span(const HostBuffer& buffer, std::int64_t rows, std::int64_t row_size) {
  if (buffer.rows < rows ||
      (rows > 0 && (rows - 1) * buffer.row_stride + row_size > buffer.elements()))
    throw std::runtime_error("rope: buffer '" + buffer.name + "' holds fewer than " +
                             std::to_string(rows) + " rows of " + std::to_string(row_size) +
                             " elements");
}

class RopeRunner : public CaseRunner {
 public:
  RopeRunner(const CaseLayouts& layouts, Fault fault)
      : shape_(rope_shape_of(layouts)),
        fault_(fault),
        name_(runner_name(layouts, fault)),
        x_offsets_(pair_offsets(layouts.at("x"))),
        out_offsets_(pair_offsets(layouts.at("out"))),
        x_row_size_(layouts.at("x").row_size),
        out_row_size_(layouts.at("out").row_size),
        table_row_size_(layouts.at("cos_sin").row_size) {
    const Contract& table = layouts.at("cos_sin");
    for (std::int64_t p = 0; p < shape_.pairs; ++p) {
      cos_offsets_.push_back(table.find_field("COS")->offset_of_linear(p));
      sin_offsets_.push_back(table.find_field("SIN")->offset_of_linear(p));
    }
  }

  std::string name() const override { return name_; }

  void run(BufferSet& buffers) override {
    const HostBuffer& x = buffers.at("x");
    const HostBuffer& table = buffers.at("cos_sin");
    const HostBuffer& positions = buffers.at("positions");
    HostBuffer& out = buffers.at("out");
    const std::int64_t tokens = x.rows;
    require_span(x, tokens, x_row_size_);
    require_span(out, tokens, out_row_size_);
    require_span(table, table.rows, table_row_size_);
    if (positions.elements() < tokens)
      throw std::runtime_error("rope: " + std::to_string(positions.elements()) + " positions for " +
                               std::to_string(tokens) + " tokens");

    for (std::int64_t t = 0; t < tokens; ++t) {
      const std::int64_t position =
          fault_ == Fault::positions_ignored ? t : static_cast<std::int64_t>(positions.value(t));
      if (position < 0 || position >= table.rows)
        throw std::runtime_error("rope: token " + std::to_string(t) + " has position " +
                                 std::to_string(position) + ", outside the cos_sin table's " +
                                 std::to_string(table.rows) + " rows");
      const std::int64_t x_row = t * x.row_stride;
      const std::int64_t out_row = t * out.row_stride;
      const std::int64_t table_row = position * table.row_stride;
      for (std::int64_t h = 0; h < shape_.heads; ++h)
        for (std::int64_t p = 0; p < shape_.pairs; ++p) {
          const std::size_t pair = static_cast<std::size_t>((h * shape_.pairs + p) * 2);
          const double x0 = x.value(x_row + x_offsets_[pair]);
          const double x1 = x.value(x_row + x_offsets_[pair + 1]);
          const double c = table.value(table_row + cos_offsets_[static_cast<std::size_t>(p)]);
          double s = table.value(table_row + sin_offsets_[static_cast<std::size_t>(p)]);
          if (fault_ == Fault::rotate_backwards) s = -s;
          out.set_value(out_row + out_offsets_[pair], x0 * c - x1 * s);
          out.set_value(out_row + out_offsets_[pair + 1], x1 * c + x0 * s);
        }
    }
  }

 private:
  RopeShape shape_;
  Fault fault_;
  std::string name_;
  std::vector<std::int64_t> x_offsets_, out_offsets_;    // per (h, p, c), within a row
  std::vector<std::int64_t> cos_offsets_, sin_offsets_;  // per p, within a row
  std::int64_t x_row_size_, out_row_size_, table_row_size_;
};

}  // namespace

std::unique_ptr<CaseRunner> make_rope_runner(const CaseLayouts& layouts, Fault fault) {
  return std::make_unique<RopeRunner>(layouts, fault);
}

}  // namespace layoutcheck::rope
