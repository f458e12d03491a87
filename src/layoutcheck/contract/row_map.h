// The inverse of a contract: for each physical offset of one row, the logical element there.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

class RowMap {
 public:
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t kPadding = kEmpty - 1;

  // @pre contract passed check_contract (every offset in [0, row_size), sizes under the cap).
  // Where declared aliasing puts two elements on one offset, the first declared wins.
  static RowMap build(const Contract& contract);

  std::int64_t size() const { return static_cast<std::int64_t>(owner_.size()); }
  // Global element id (Contract::global_id) at offset, or kEmpty / kPadding.
  std::uint32_t at(std::int64_t offset) const { return owner_[static_cast<std::size_t>(offset)]; }
  const std::vector<std::uint32_t>& owners() const { return owner_; }

 private:
  std::vector<std::uint32_t> owner_;
};

}  // namespace layoutcheck
