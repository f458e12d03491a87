// A read map says, for each logical element a consumer (a kernel) expects, the physical offset it
// actually reads it from. The static diff derives one from the consumer's contract; probes
// recover one from a running kernel. Both are judged the same way against the producer's contract,
// so "the probe verdict and the static diff agree" is a comparison of two MisreadReports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/diff/structure.h"
#include "layoutcheck/diff/token_moves.h"

namespace layoutcheck {

struct ReadMap {
  static constexpr std::int64_t kUnresolved = -1;  // no candidate matched the response
  static constexpr std::int64_t kAmbiguous = -2;   // several candidates matched equally well
  static constexpr std::int64_t kNotRead = -3;     // the kernel never reads this element

  // Indexed by the consumer's global element id (Contract::global_id).
  std::vector<std::int64_t> offsets;

  // What the consumer's contract says it reads: offsets[e] = consumer.offset_of(e).
  static ReadMap from_contract(const Contract& consumer);
};

// A maximal run of consecutive physical offsets over which the producer's element and the
// consumer's element both advance by one logical step, and differ.
// Text form: "offsets 128-255 hold K[0,0:128] in the producer, read as Q[1,0:128] by the consumer"
struct MisreadRun {
  std::int64_t offset_begin = 0;  // inclusive
  std::int64_t offset_end = 0;    // exclusive
  std::string producer;  // "K[0,0:128]", "padding 'pad'[0:64]", "nothing" or "beyond the row"
  std::string consumer;  // "Q[1,0:128]"
};

struct FieldReport {
  std::string name;
  std::int64_t elements = 0;
  std::int64_t misread = 0;
  std::int64_t unresolved = 0;  // probes only: no unique match
};

// At most this many runs are kept (a transposed 10^7-element state would otherwise make 10^7 of
// them); MisreadReport::runs_total still counts all.
inline constexpr std::size_t kMaxStoredRuns = 10000;
inline constexpr std::size_t kMaxUnresolvedNames = 20;

struct MisreadReport {
  std::string producer;  // contract names, e.g. "qwen3_5.qkvz"
  std::string consumer;
  std::string producer_file;  // paths as given ("" for contracts built in code)
  std::string consumer_file;
  std::int64_t elements = 0;  // logical elements per row
  std::int64_t misread = 0;
  std::int64_t unresolved = 0;
  std::vector<FieldReport> fields;
  std::vector<MisreadRun> runs;                  // misread runs, by consumer element order
  std::int64_t runs_total = 0;                   // runs found (runs keeps the first kMaxStoredRuns)
  std::vector<std::uint8_t> misread_mask;        // per consumer global element: 1 = misread
  std::vector<std::string> unresolved_elements;  // names, the first kMaxUnresolvedNames
  // Row dims the two contracts step differently: every row after the first is read from the wrong
  // place, however well one row agrees ("row dim 'token': producer stride 8, consumer stride 4").
  std::vector<std::string> row_mismatches;
  std::vector<std::string> notes;  // differences that are allowed but worth saying (row sizes)
  // The static diff's per-field comparison of the two layouts; absent for probed read maps, which
  // have no layout of their own to compare.
  std::optional<StructuralSummary> structure;
  // Two gathers of one token grid: the tokens the consumer looks for elsewhere (token_moves.h).
  std::optional<TokenMoves> token_moves;

  // Something is read from the wrong place: a finding (exit 1).
  bool has_findings() const { return misread > 0 || !row_mismatches.empty(); }
};

// @pre producer and consumer have the same field names with the same shapes (else InputError,
//      rule "incompatible", saying exactly what differs), and reads covers every consumer element.
MisreadReport compare_reads(const Contract& producer, const Contract& consumer,
                            const ReadMap& reads);

// Throws InputError (rule "incompatible") unless both contracts describe the same buffer with the
// same dtype and the same fields with the same logical shapes; the message names every difference
// ("fields missing in the consumer: Z", "field V: producer [48,128], consumer [32,128]").
void require_same_fields(const Contract& producer, const Contract& consumer);

}  // namespace layoutcheck
