#include "layoutcheck/contract/row_map.h"

#include <algorithm>

namespace layoutcheck {

RowMap RowMap::build(const Contract& contract) {
  if (contract.elements() >= static_cast<std::int64_t>(kPadding))
    throw InputError(Diagnostic{contract.where, Severity::error, "element-cap",
                                "a row map holds at most " + std::to_string(kPadding - 1) +
                                    " elements; " + contract.name + " has " +
                                    std::to_string(contract.elements()),
                                "lower --max-elements"});
  RowMap map;
  const std::int64_t row_size = contract.row_size;
  map.owner_.assign(static_cast<std::size_t>(std::max<std::int64_t>(row_size, 0)), kEmpty);
  std::uint32_t* owner = map.owner_.data();
  std::uint32_t base = 0;
  for (const Field& field : contract.fields) {
    // Offsets outside the row are impossible after check_contract; skipping them keeps a
    // contract that was not checked from writing out of bounds.
    field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      if (offset >= 0 && offset < row_size && owner[offset] == kEmpty)
        owner[offset] = base + static_cast<std::uint32_t>(linear);
    });
    base += static_cast<std::uint32_t>(field.elements());
  }
  for (const Padding& padding : contract.padding)
    for (std::int64_t offset = std::max<std::int64_t>(padding.offset, 0);
         offset < std::min(padding.offset + padding.size, row_size); ++offset)
      if (owner[offset] == kEmpty) owner[offset] = kPadding;
  return map;
}

}  // namespace layoutcheck
