// What a probe sweep found about a kernel: the read map it recovered, judged against the
// producer's contract exactly as the static diff judges the consumer's contract, plus what a read
// map cannot say (value heads routed to the wrong key head, a wrong row stride, a numeric bug).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cases/gdn/layouts.h"
#include "layoutcheck/diff/read_map.h"

namespace layoutcheck {

// Value head `value_head` read q and k from key heads other than the one it should (hv / G).
struct RoutingFinding {
  std::int64_t value_head = 0;
  std::int64_t expected_key_head = 0;
  std::vector<std::int64_t> key_heads_read;
};

// What one output lane (value head) consumed from the probed buffer: how many elements of each
// field, and from which key heads its q and k came.
struct LaneConsumption {
  std::int64_t value_head = 0;
  std::vector<std::pair<std::string, std::int64_t>> elements_per_field;
  std::vector<std::int64_t> key_heads;
};

// A probe in batch row `row` was read differently than the same probe in row 0.
struct RowStrideFinding {
  std::int64_t row = 0;
  std::int64_t offset = 0;  // offset within the probed row
  std::vector<std::int64_t> responding_rows;
  std::string in_row_zero;                        // what row 0 read from that offset
  std::string here;                               // what was read this time
  std::optional<std::int64_t> kernel_row_stride;  // inferred, when the evidence pins it down
};

// Offsets of the producer's row the kernel never reads, with what the producer keeps there.
struct OffsetRun {
  std::int64_t offset_begin = 0;
  std::int64_t offset_end = 0;  // exclusive
  std::string holds;
};

// The kernel on random inputs laid out as it claims to read them, against the fp64 reference.
struct ValueCheck {
  bool ran = false;
  bool passed = true;
  double out_relative_l2 = 0;
  double state_relative_l2 = 0;
  bool conv_state_exact = true;
  std::string detail;
};

inline constexpr std::size_t kMaxListedProbes = 20;

struct ProbeVerdict {
  std::string runner;
  GdnBuffer buffer = GdnBuffer::qkvz;
  std::int64_t offsets = 0;  // offsets of the producer's row
  std::int64_t probed = 0;   // offsets probed: all, or a seeded random sample
  std::int64_t runs = 0;     // runner calls of the sweep
  // Sampled: consumer elements whose claimed offset was not probed, placed by the claim.
  std::int64_t placed_by_claim = 0;
  ReadMap read_map;                    // consumer element -> offset the kernel read it from
  MisreadReport reads;                 // the probed read map against the producer
  MisreadReport static_diff;           // what the two contracts say
  bool agrees_with_diff = false;       // same misread set, nothing unresolved
  std::int64_t unresolved_probes = 0;  // probes whose response matched no or several candidates
  std::vector<std::string> unresolved_details;  // the first kMaxListedProbes, with reasons
  // Elements found at more than one offset (different heads read them from different places).
  std::int64_t read_from_several_offsets = 0;
  // Probes whose element the conv state named but whose head's values are off the prediction.
  std::int64_t value_deviations = 0;
  std::vector<OffsetRun> never_read;
  std::vector<LaneConsumption> lanes;  // per value head that consumed anything
  std::vector<RoutingFinding> routing;
  std::vector<RowStrideFinding> row_stride;
  std::int64_t sweep_batch = 0;  // probes per runner call
  ValueCheck values;
  // The buffers not probed and the contract each was laid out by: the kernel's claim, which the
  // sweep feeds the reference too.
  std::vector<std::pair<GdnBuffer, std::string>> not_probed;

  // Every element read from where the producer put it, every head routed right, rows right.
  bool layout_ok() const {
    return reads.misread == 0 && reads.unresolved == 0 && unresolved_probes == 0 &&
           routing.empty() && row_stride.empty();
  }
  // The random-input check decides; per-probe deviations only when it did not run (kernels with
  // extra rounding points deviate per probe within their overall tolerance).
  bool values_ok() const { return values.ran ? values.passed : value_deviations == 0; }
  bool clean() const { return layout_ok() && agrees_with_diff && values_ok(); }

  // One line: "clean", "layout misread: 16128 of 16384 elements", "no layout misread, values
  // differ", ...
  std::string conclusion() const;
};

}  // namespace layoutcheck
