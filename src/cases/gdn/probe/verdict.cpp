#include "cases/gdn/probe/verdict.h"

namespace layoutcheck {

std::string ProbeVerdict::conclusion() const {
  const std::string diff_says =
      static_diff.misread == 0 ? "the static diff predicts none"
                               : "the static diff predicts " + std::to_string(static_diff.misread);
  if (!layout_ok()) {
    std::string text;
    auto add = [&text](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
    if (reads.misread > 0)
      add("layout misread: " + std::to_string(reads.misread) + " of " +
          std::to_string(reads.elements) + " elements" +
          (agrees_with_diff ? ", exactly the static diff's set" : ""));
    if (unresolved_probes > 0)
      add(std::to_string(reads.unresolved) + " elements unresolved (" +
          std::to_string(unresolved_probes) + " probes matched no single candidate)");
    if (read_from_several_offsets > 0)
      add(std::to_string(read_from_several_offsets) + " elements read from several offsets");
    if (unresolved_probes == 0 && reads.unresolved > read_from_several_offsets)
      add(std::to_string(reads.unresolved - read_from_several_offsets) + " elements never read");
    if (!routing.empty())
      add(std::to_string(routing.size()) + " value heads read the wrong key head");
    if (!row_stride.empty()) add("batch rows are read at the wrong row stride");
    if (agrees_with_diff) return text;
    return text + "; " + diff_says + (static_diff.misread > 0 ? " misread" : "") +
           ": the probes and the contracts disagree";
  }
  if (!agrees_with_diff)
    return "every element is read from where the producer put it, but " + diff_says +
           " misread: the consumer contract does not describe this kernel";
  if (!values_ok()) return "no layout misread, values differ";
  return "clean: every element is read from where the producer put it and the values match "
         "the reference";
}

}  // namespace layoutcheck
