// The request of a probe of one case's buffer from contract files: what `probe --case` reads from
// its command line and `layoutcheck.probe` from its arguments, so both probe the same thing.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "layoutcheck/cases/case.h"
#include "layoutcheck/contract/parse.h"
#include "layoutcheck/probe/case_probe.h"

namespace layoutcheck {

// The buffers not probed default to the case's own contracts on both sides; `with` says how the
// kernel lays one out, `producer_with` how the model does (a shifted-window block's windows, say).
// One given only on the kernel's side is a claim that differs from the model.
struct CaseProbeFiles {
  std::string producer;                    // the probed buffer as the model writes it
  std::string consumer;                    // the probed buffer as the kernel claims to read it
  std::vector<std::string> with;           // other buffers as the kernel claims them
  std::vector<std::string> producer_with;  // other buffers as the model lays them out
  std::optional<std::string> buffer;       // default: the buffer the producer describes
};

// @post request.buffer, model (the case's defaults, then `producer_with` and the producer) and
//       claimed (the defaults, then `with` and the consumer) are set; the other members keep
//       their defaults, and check_inputs_not_probed is set. Throws InputError (rule "usage")
//       when the producer or the consumer is not given or they do not both describe the probed
//       buffer, (rule "case-layout") when two files of one side describe one buffer or one of
//       `with` or `producer_with` describes the probed buffer, and what loading throws.
CaseProbeRequest case_probe_request(const Case& subject, const CaseProbeFiles& files,
                                    const LoadOptions& load,
                                    const std::filesystem::path& contracts_folder);

}  // namespace layoutcheck
