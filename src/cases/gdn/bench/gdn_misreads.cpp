#include "cases/gdn/bench/gdn_misreads.h"

#include "layoutcheck/diff/diff.h"

namespace layoutcheck {

ProbeGate static_gdn_misreads(const GdnLayouts& producer, const GdnLayouts& consumer) {
  ProbeGate gate{"static diff", 0, 0};
  for (const auto& [made, read] :
       {std::pair{&producer.qkvz, &consumer.qkvz}, std::pair{&producer.ba, &consumer.ba}}) {
    const MisreadReport report = diff_contracts(*made, *read);
    gate.elements += report.elements;
    gate.misread += report.misread;
  }
  return gate;
}

}  // namespace layoutcheck
