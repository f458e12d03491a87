// The text form of a MisreadReport: a short summary a reviewer pastes into a pull request.
//
//   qwen3_next.qkvz (producer) -> qwen3_5.qkvz (consumer): 16128 of 16384 elements misread
//     field  elements  misread
//     Q          2048     1920
//     ...
//     structure, producer vs consumer (shape:stride at offset):
//       Q  (16,128):(1024,1) at 0  vs  (16,128):(128,1) at 0
//          interleaved per h -> group-major: h stride 1024 -> 128
//     ...
//     offsets 128-255 hold K[0,0:128] in the producer, read as Q[1,0:128] by the consumer
//     ... and 120 more runs
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "layoutcheck/diff/read_map.h"
#include "layoutcheck/diff/structure.h"

namespace layoutcheck {

inline constexpr std::size_t kDefaultTextRuns = 8;

// "qwen3_5.qkvz (producer) -> qwen3_next.qkvz (consumer)"
std::string report_title(const MisreadReport& report);

// One line when the layouts agree; otherwise the title line, a per-field table, the structure
// (when the report has one) and the first max_runs runs. Every line ends in '\n'.
std::string report_to_text(const MisreadReport& report, std::size_t max_runs = kDefaultTextRuns);

// "(16,128):(1024,1) at 128"
std::string layout_at(const std::string& layout, std::int64_t offset);

// What changed in one field, in one line: "same layout", or the classification (else
// "changed") and the changes: "stride change: h stride 128 -> 1024".
std::string describe_change(const FieldStructure& field);

// `text` padded with spaces to `width` characters, for the columns of the text reports.
std::string pad_right(std::string text, std::size_t width);

// "93.8 %": part of whole, one decimal ("0.0 %" when whole is 0).
std::string percent_of(std::int64_t part, std::int64_t whole);

// "offset 7", "offsets 128-255" (end exclusive)
std::string offsets_text(std::int64_t begin, std::int64_t end);

// A probed run, from the kernel's side: "the kernel reads Q[1,0:128] from offsets 1024-1151,
// which hold Q[8,0:128]".
std::string describe_run(const MisreadRun& run);

}  // namespace layoutcheck
