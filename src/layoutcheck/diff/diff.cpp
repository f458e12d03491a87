#include "layoutcheck/diff/diff.h"

namespace layoutcheck {

MisreadReport diff_contracts(const Contract& producer, const Contract& consumer) {
  require_same_fields(producer, consumer);  // before building a read map that may be huge
  MisreadReport report = compare_reads(producer, consumer, ReadMap::from_contract(consumer));
  report.structure = compare_structure(producer, consumer);
  report.token_moves = compare_token_slots(producer, consumer);
  return report;
}

}  // namespace layoutcheck
