// The toolkit's generic decoders, for any case (cases/case.h): a kernel treated as a black box is
// run on the case's buffers, the probed buffer laid out as the model (the producer) lays it out,
// and what it read is recovered element by element and judged against the producer's contract
// exactly as `diff` judges the kernel's claimed contract.
//   - dependence: the probed buffer holds one constant (it looks the same under any permutation),
//     one offset at a time holds another value; the outputs each probe changes are compared with
//     the responses of the case's reference to each of its logical elements. The element whose
//     response the kernel's equals (the same outputs, the same values within a tolerance) is what
//     the kernel read there. Works for any operator; a row-wise one reads each row's elements.
//   - data movement: for kernels whose outputs are copies of inputs or constants (adapters,
//     gathers): every element of the probed buffer holds one bit of its own index, ceil(log2 N)
//     runs spell out the exact source of every output element, compared with the reference's.
// Both also check the kernel's values on random inputs against the reference's.
//
//   auto rope = CaseRegistry::instance().get("rope");
//   CaseProbeRequest request{"x", model_layouts, claimed_layouts};
//   auto kernel = rope->reference(claimed_layouts);   // the CPU model of an interleaved kernel
//   CaseVerdict verdict = probe_case(*rope, *kernel, kDependenceDecoder, request);
//   verdict.reads.misread  ->  the static diff's misread set, exactly (verdict.agrees_with_diff)
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "layoutcheck/cases/case.h"
#include "layoutcheck/probe/case_verdict.h"

namespace layoutcheck {

struct CaseProbeRequest {
  std::string buffer;      // the buffer probed
  CaseLayouts model;       // how the model lays out every buffer (the probed one: the producer)
  CaseLayouts claimed;     // what the kernel claims to read and write (for the static diff)
  std::int64_t rows = 2;   // batch rows per call: rows after the first check the stride
  // Elements any one buffer may hold at `rows` rows: what bounds a probe's memory, as the same cap
  // bounds a contract's (LoadOptions::element_cap, --max-elements).
  std::int64_t element_cap = kDefaultElementCap;
  std::uint64_t seed = 1;  // the random contents of the buffers not probed
  std::int64_t max_probes = 1 << 14;  // offsets probed at most; above, a seeded random sample
  // A kernel's response matches the reference's when it is within this fraction of its size.
  double tolerance = 0.05;
  // Called as the sweep goes: probes done (dependence) or runs done (data movement) of total.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  // Run the case's value probes (Case::value_probes) too; a port's check runs them once for the
  // port rather than once per probed buffer.
  bool value_probes = true;
  // Compare the model's and the kernel's layouts of the inputs not probed, each difference an
  // input-layout finding: a probe of one buffer says nothing of how the others are read. A port's
  // check probes each of its buffers itself.
  bool check_inputs_not_probed = false;
};

// The case's value probes on the kernel against the reference on the model's layouts: one
// finding per probe whose outputs differ, of the probe's kind, naming the buffers and errors.
std::vector<ProbeFinding> run_value_probes(const Case& subject, CaseRunner& kernel,
                                           const CaseProbeRequest& request);

// @post throws InputError (rule "probe") unless the case reads `buffer`: a probe varies what a
//       kernel reads. Cheap, so a request can be refused before its contracts are loaded.
void require_probeable_buffer(const Case& subject, const std::string& buffer);

// @post throws InputError (rule "probe") when the decoder does not apply to the case or the buffer
//       (a data-movement probe of an operator that computes), or the layouts do not fit the case;
//       std::runtime_error when the runner fails.
CaseVerdict probe_case(const Case& subject, CaseRunner& kernel, std::string_view decoder,
                       const CaseProbeRequest& request);

}  // namespace layoutcheck
