#include "layoutcheck/diff/diff.h"

namespace layoutcheck {

MisreadReport diff_contracts(const Contract& producer, const Contract& consumer) {
  require_same_fields(producer, consumer);  // before building a read map that may be huge
  return compare_reads(producer, consumer, ReadMap::from_contract(consumer));
}

}  // namespace layoutcheck
