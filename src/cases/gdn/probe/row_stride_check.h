// Is batch row r read like row 0? The same offset is probed alone in rows 0, 1 and the last row of
// a small batch; a kernel with a wrong row stride reads the probe as another element, or answers
// in another row.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cases/gdn/probe/probe_session.h"
#include "cases/gdn/probe/verdict.h"
#include "layoutcheck/diff/read_map.h"

namespace layoutcheck {

struct RowStrideEvidence {
  RowStrideFinding finding;
  std::int64_t responding_row = -1;  // the one row that answered, when exactly one did
  std::vector<ElementRef> elements;  // what that row read
};

// @pre session.batch() >= 2.
std::vector<RowStrideEvidence> check_row_stride(ProbeSession& session, const Contract& consumer,
                                                std::span<const std::int64_t> offsets);

// Offsets worth checking: the first element of every field of the producer, and the row's middle.
std::vector<std::int64_t> row_check_offsets(const Contract& producer);

// Fills finding.kernel_row_stride where the evidence and the row-0 read map pin it down: the
// kernel's row r' starts at (r * stride + offset - offset read in row 0) / r'.
void infer_kernel_row_stride(std::vector<RowStrideEvidence>& evidence, const ReadMap& row_zero,
                             const Contract& consumer, std::int64_t producer_row_stride);

}  // namespace layoutcheck
