// What to probe and how: the subject of a one-hot sweep (a kernel treated as a black box, the
// contracts it claims to read, the producer contract of the buffer it is fed) and the knobs.
#pragma once

#include <cstdint>
#include <functional>

#include "cases/gdn/layouts.h"
#include "cases/gdn/shape.h"
#include "layoutcheck/contract/contract.h"

namespace layoutcheck {

struct ProbeTarget {
  GdnShape shape;
  GdnBuffer buffer = GdnBuffer::qkvz;  // the buffer probed
  Contract producer;                   // how that buffer is laid out by whoever writes it
  GdnLayouts consumer;                 // the layouts the kernel claims to read (all three)
};

// The probed buffer holds `base` everywhere (a constant looks the same under any permutation)
// except one element holding `hot`.
struct OneHotValues {
  float base = 0;
  float hot = 0;
};

// Values chosen so that one element moves a head's output by tens of percent: well above bf16
// rounding, and nothing saturates.
OneHotValues default_one_hot_values(GdnBuffer buffer);

struct ProbeOptions {
  // Probes per runner call, one per batch row. 0: what the runner prefers, else sized for the
  // CPU models (a few rows, so the fp32 state of one call stays in cache).
  std::int64_t max_batch = 0;
  // Offsets probed at most; a larger row is probed on a seeded random sample of this many, and the
  // verdict says so. 0: every offset.
  std::int64_t max_probes = 0;
  unsigned threads = 0;    // decoding threads; 0: all hardware threads
  std::uint64_t seed = 1;  // the random contents of the buffers not probed
  // A prediction matches when it is within `tolerance` (relative) of the response, plus the
  // bf16 rounding of the outputs; a match must be unique: no other candidate within twice that.
  double tolerance = 0.01;
  bool check_row_stride = true;   // probe rows other than row 0 and compare
  bool check_values = true;       // a full random-input check against the reference
  double out_tolerance = 2e-2;    // relative L2 of the output in that check
  double state_tolerance = 1e-5;  // relative L2 of the state
  OneHotValues values{};          // {0, 0}: default_one_hot_values(buffer)
  // Called after every runner call of the sweep: probes done, probes in all.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
};

}  // namespace layoutcheck
