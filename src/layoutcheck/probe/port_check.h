// What `layoutcheck run` concludes of a port, for any case: the probe of every buffer the case
// lists for ports (Case::port_probe_buffers), each through the case's first decoder, and the
// findings that concern the port as a whole rather than one buffer's reads. The values on random
// inputs are the port's, not a buffer's: a misread of the state makes every output differ, and
// the verdict of q must not say so. Clean only when every buffer is read right, the values agree
// and nothing was left unverified.
#pragma once

#include <string>
#include <vector>

#include "layoutcheck/probe/case_probe.h"
#include "layoutcheck/probe/case_verdict.h"

namespace layoutcheck {

struct PortCheck {
  std::string port;                    // the manifest's name, or its kernel's entry
  std::vector<CaseVerdict> buffers;    // one per probed buffer, in the case's order
  std::vector<ProbeFinding> findings;  // the port as a whole
  bool values_checked = false;         // the port's values on random inputs, against the reference
  bool values_ok = true;
  std::string values_detail;
  std::vector<std::string> not_verified;
  std::vector<std::string> notes;  // what a reviewer should know, not findings

  bool clean() const;
  // One line: "clean", or the buffers with findings and what each has.
  std::string conclusion() const;
};

// @pre request.model and request.claimed hold the port's layouts; request.buffer is ignored.
PortCheck check_port(const Case& subject, CaseRunner& port, const std::string& port_name,
                     const CaseProbeRequest& request);

// `contract` with every row kPitchPad elements longer than it says: what a caller passes when its
// rows are slices of wider ones. The ABI passes the row stride, so a kernel that honours it reads
// the same elements; one that computes its own pitch reads across the pad.
inline constexpr std::int64_t kPitchPad = 16;
Contract with_padded_rows(const Contract& contract);
// The `row-pitch` finding's message.
std::string row_pitch_message(const std::string& buffer, std::int64_t padded_stride,
                              const std::string& padded_conclusion);

std::string port_check_text(const PortCheck& check);
Json port_check_json(const PortCheck& check);

}  // namespace layoutcheck
