// The verdict of a probe of one buffer, whichever case and decoder produced it (the generic data
// movement and dependence decoders, GDN's own): what the kernel read, judged against the
// producer's contract exactly as `diff` judges the consumer's contract, plus what a read map
// cannot say (a dependence the reference does not have, a value head routed to the wrong key
// head, values that differ) and what could not be verified. Rendered as text and JSON.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layoutcheck/cases/case.h"  // ProbeFinding
#include "layoutcheck/diff/read_map.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

inline constexpr std::size_t kMaxListedFindings = 20;

struct CaseVerdict {
  std::string case_name;
  std::string decoder;  // "dependence", "data-movement"
  std::string runner;
  std::string buffer;         // the probed buffer
  std::int64_t offsets = 0;   // offsets of the probed buffer (all rows)
  std::int64_t probed = 0;    // offsets probed; fewer than `offsets` when sampled
  std::int64_t runs = 0;      // runner calls
  std::int64_t rows = 0;      // batch rows per call
  MisreadReport reads;        // the probed read map (row 0) against the producer
  MisreadReport static_diff;  // the consumer's contract against the producer's
  bool agrees_with_diff = false;
  // Findings by kind, counted in full (finding_counts), listed up to kMaxListedFindings each.
  std::vector<ProbeFinding> findings;
  std::map<std::string, std::int64_t, std::less<>> finding_counts;
  std::int64_t dependence_mismatches = 0;  // probes whose response the reference does not have
  std::int64_t unresolved = 0;             // probes whose response named no or several elements
  std::int64_t row_stride_findings = 0;    // rows read from elsewhere than row 0 says
  // Output elements the kernel writes where the model reads another (its claimed output layout,
  // which the probes' responses confirm, against the model's).
  std::int64_t outputs_misplaced = 0;
  // The layouts the buffers not probed were judged on, so a verdict says what it was checked
  // against: the model's contract and the kernel's claim, by name.
  struct OtherLayout {
    std::string buffer, model, kernel;
  };
  std::vector<OtherLayout> other_layouts;
  bool values_checked = false;
  bool values_ok = true;
  std::string values_detail;              // the worst difference against the reference
  std::vector<std::string> not_verified;  // checks that could not run, and why
  // A random sample (probed < offsets) stands for the rest when every probed offset is read as
  // the kernel's claim says: elements whose claimed offset was not probed are placed by the claim.
  std::int64_t placed_by_claim = 0;
  std::vector<std::string> notes;  // context a reviewer needs, not findings
  // Set when this buffer's findings follow from another's (GDN's state probes decode through q
  // and k: a kernel routing them wrongly disturbs every state probe): the findings stay listed,
  // the conclusion names the cause instead of them.
  std::string side_effect_of;
  Json details = Json::object();  // the decoder's own evidence (JSON only): GDN's lanes

  // Every element read from where the producer put it, the same dependences as the reference,
  // every row alike, the values right, no finding but soft ones, and nothing left unverified.
  bool clean() const;
  // clean() but for the values: what was read is right (a numeric bug may remain).
  bool reads_clean() const;
  // A numeric bug, not a layout: most probes' values differ from the reference's prediction, the
  // values are wrong, and the probes place at most 1 % of what they probed elsewhere (or match it
  // to no single element), with no structural finding (routing, rows, dependences). Those few
  // placements are side effects of the wrong values and are not reported as a misread.
  bool value_noise() const;
  bool sampled() const { return probed < offsets; }
  std::int64_t count(std::string_view kind) const;
  // One line: "clean", "layout misread: 384 of 512 elements, exactly the static diff's set", ...
  // with_values: the values part too (a port's verdict says it once for all buffers).
  std::string conclusion(bool with_values = true) const;
  void add(std::string kind, std::string buffer, std::string message);
};

std::string case_verdict_text(const CaseVerdict& verdict, std::size_t max_runs = 8);
Json findings_json(const std::vector<ProbeFinding>& findings);  // [{kind, buffer, message}]
Json case_verdict_json(const CaseVerdict& verdict, std::size_t max_runs = kMaxStoredRuns);

}  // namespace layoutcheck
