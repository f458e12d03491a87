#include "layoutcheck/render/grid_level.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "layoutcheck/contract/gather_map.h"

namespace layoutcheck {
namespace {

[[noreturn]] void not_a_grid(
    const Contract& contract, const std::string& message,
    std::string fix = "a grid picture needs a gather: whose field has dims (levels..., rows, "
                      "columns, token), the token dim last; a contract without gather: is drawn "
                      "as its row") {
  throw InputError(Diagnostic{contract.gather ? contract.gather->where : contract.where,
                              Severity::error, "render",
                              contract.name + " is not a grid picture: " + message,
                              std::move(fix)});
}

// A grid dim's fastest mode walks within one window and its slower modes pick the window (Pangu's
// ih within bh): the window partition the contract's own modes spell.
std::int64_t window_extent(const Dim& dim) {
  return dim.modes.front().size;
}

std::int64_t block_of(const Dim& dim, std::int64_t position) {
  return position / window_extent(dim);
}

GridAxis axis_of(const Dim& dim) {
  GridAxis axis{dim.name,      dim.size(), dim.padded_size(),  dim.pad_before,
                dim.pad_after, dim.shift,  window_extent(dim), {}};
  axis.block.resize(static_cast<std::size_t>(axis.padded));
  for (std::int64_t u = 0; u < axis.padded; ++u)
    axis.block[static_cast<std::size_t>(u)] = block_of(dim, dim.position_of(u - dim.pad_before));
  return axis;
}

// Per window (its block indices raveled over the grid dims, outermost first) its number in gather
// order: windows sorted by their first slot, the slot of in-window index 0 on every dim.
std::vector<std::int32_t> windows_in_gather_order(const Field& field, std::int64_t token_width) {
  const std::size_t grid_dims = field.dims.size() - 1;
  std::int64_t total = 1;
  for (std::size_t d = 0; d < grid_dims; ++d)
    total *= field.dims[d].padded_size() / window_extent(field.dims[d]);
  std::vector<std::int64_t> first_slot(static_cast<std::size_t>(total));
  for (std::int64_t window = 0; window < total; ++window) {
    std::int64_t offset = field.offset, rest = window;
    for (std::size_t d = grid_dims; d-- > 0;) {
      const Dim& dim = field.dims[d];
      const std::int64_t blocks = dim.padded_size() / window_extent(dim);
      offset += dim.offset_of_position((rest % blocks) * window_extent(dim));
      rest /= blocks;
    }
    first_slot[static_cast<std::size_t>(window)] = offset / token_width;
  }
  std::vector<std::int64_t> order(first_slot.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return first_slot[static_cast<std::size_t>(a)] < first_slot[static_cast<std::size_t>(b)];
  });
  std::vector<std::int32_t> number(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    number[static_cast<std::size_t>(order[k])] = static_cast<std::int32_t>(k);
  return number;
}

}  // namespace

std::int64_t GridLevel::real_tokens() const {
  return std::count_if(token.begin(), token.end(), [](std::int32_t t) { return t >= 0; });
}

std::int32_t GridLevel::window_or_padding(std::int64_t row, std::int64_t column) const {
  const auto cell = static_cast<std::size_t>(row * columns.padded + column);
  return token.at(cell) < 0 ? -1 : window.at(cell);
}

bool is_grid_contract(const Contract& contract) {
  if (!contract.gather) return false;
  const Field* field = contract.find_field(contract.gather->field);
  return field != nullptr && field->dims.size() >= 3 &&
         field->dims.back().name == contract.gather->token;
}

GridLevel grid_level(const Contract& contract, std::int64_t level) {
  if (!contract.gather) not_a_grid(contract, "it declares no gather");
  const Field* field = contract.find_field(contract.gather->field);
  if (field == nullptr)
    not_a_grid(contract, "the gathered field '" + contract.gather->field + "' does not exist");
  if (field->dims.size() < 3)
    not_a_grid(contract, "the gathered field '" + field->name + "' has " +
                             std::to_string(field->dims.size()) +
                             " dims, not rows, columns and the token");
  if (field->dims.back().name != contract.gather->token)
    not_a_grid(contract, "the last dim of '" + field->name + "' is '" + field->dims.back().name +
                             "', not the token dim '" + contract.gather->token + "'");
  const std::size_t row_dim = field->dims.size() - 3, column_dim = field->dims.size() - 2;
  const Dim& rows = field->dims[row_dim];
  const Dim& columns = field->dims[column_dim];
  if (rows.padded_size() > kMaxGridSide || columns.padded_size() > kMaxGridSide)
    not_a_grid(contract, "one level is " + std::to_string(rows.padded_size()) + " x " +
                             std::to_string(columns.padded_size()) + " cells, more than the " +
                             std::to_string(kMaxGridSide) + " per axis a picture can show",
               "draw a smaller grid (--set its sizes)");

  GridLevel grid;
  grid.contract = contract.name;
  for (std::size_t d = 0; d < row_dim; ++d) grid.levels *= field->dims[d].size();
  if (level < 0 || level >= grid.levels)
    throw std::invalid_argument(
        "level " + std::to_string(level) + " is out of range: " + contract.name + " has " +
        std::to_string(grid.levels) +
        (grid.levels == 1 ? " level (0)"
                          : " levels (0 to " + std::to_string(grid.levels - 1) + ")"));
  grid.level = level;
  grid.rows = axis_of(rows);
  grid.columns = axis_of(columns);

  const GatherMap map = make_gather_map(contract);
  const std::vector<std::int32_t> window_number = windows_in_gather_order(*field, map.token_width);

  // The level dims fix one offset and one block index each, outermost first.
  std::int64_t base = field->offset, level_window = 0, rest = level;
  std::vector<std::int64_t> level_index(row_dim);
  for (std::size_t d = row_dim; d-- > 0;) {
    level_index[d] = rest % field->dims[d].size();
    rest /= field->dims[d].size();
  }
  for (std::size_t d = 0; d < row_dim; ++d) {
    const Dim& dim = field->dims[d];
    grid.level_axes.push_back(axis_of(dim));
    const std::int64_t position = dim.position_of(level_index[d]);
    base += dim.offset_of_position(position);
    level_window =
        level_window * (dim.padded_size() / window_extent(dim)) + block_of(dim, position);
    grid.level_label += (d == 0 ? "" : ", ") + dim.name + " = " + std::to_string(level_index[d]);
  }
  grid.windows = grid.rows.blocks() * grid.columns.blocks();
  grid.window_slots = grid.window_cells();
  for (std::size_t d = 0; d < row_dim; ++d) grid.window_slots *= window_extent(field->dims[d]);

  auto offsets_of = [](const Dim& dim) {
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(dim.padded_size()));
    for (std::int64_t u = 0; u < dim.padded_size(); ++u)
      offsets[static_cast<std::size_t>(u)] =
          dim.offset_of_position(dim.position_of(u - dim.pad_before));
    return offsets;
  };
  const std::vector<std::int64_t> row_offsets = offsets_of(rows),
                                  column_offsets = offsets_of(columns);
  grid.window.resize(static_cast<std::size_t>(grid.cells()));
  grid.token.resize(static_cast<std::size_t>(grid.cells()));
  for (std::int64_t r = 0; r < grid.rows.padded; ++r) {
    for (std::int64_t c = 0; c < grid.columns.padded; ++c) {
      const auto cell = static_cast<std::size_t>(r * grid.columns.padded + c);
      const std::int64_t slot = (base + row_offsets[static_cast<std::size_t>(r)] +
                                 column_offsets[static_cast<std::size_t>(c)]) /
                                map.token_width;
      if (slot < 0 || slot >= static_cast<std::int64_t>(map.slots.size()))
        not_a_grid(contract, "cell (" + std::to_string(r) + ", " + std::to_string(c) +
                                 ") falls in slot " + std::to_string(slot) + ", outside the row");
      grid.token[cell] = map.slots[static_cast<std::size_t>(slot)];
      const std::int64_t window =
          (level_window * grid.rows.blocks() + grid.rows.block[static_cast<std::size_t>(r)]) *
              grid.columns.blocks() +
          grid.columns.block[static_cast<std::size_t>(c)];
      grid.window[cell] = window_number[static_cast<std::size_t>(window)];
    }
  }
  return grid;
}

}  // namespace layoutcheck
