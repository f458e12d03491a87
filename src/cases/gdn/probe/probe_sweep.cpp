#include "cases/gdn/probe/probe_sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "cases/gdn/probe/probe_session.h"
#include "cases/gdn/probe/row_stride_check.h"
#include "cases/gdn/probe/value_check.h"
#include "layoutcheck/contract/row_map.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/diff/element_range.h"

namespace layoutcheck {
namespace {

// Rows per call for the CPU models: enough to amortise a call's fixed costs (threads, the
// decoding hand-over), few enough that a call's state stays near the cache (8 rows at 16/48/128).
constexpr std::int64_t kCpuBatchBytes = 24 << 20;
constexpr std::int64_t kRowCheckBatch = 3;
// A runner call holds its batch rows of every step buffer; past this a probe would take the
// machine's memory (and be killed) instead of failing with a reason.
constexpr double kMaxCallBytes = 4.0 * (1 << 30);

// Bytes of one batch row of every GDN step buffer, in double: sizes from --set may be absurd.
double step_row_bytes(const GdnShape& s) {
  const double H = s.H, HV = s.HV, K = s.K, V = s.V, W = s.W;
  const double bf16_elements = (2 * H * K + 2 * HV * V) + 2 * HV + (2 * H * K + HV * V) * (W - 1) +
                               HV * V;  // qkvz, ba, conv state, out
  return 2 * bf16_elements + 4 * HV * K * V;
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1 << 30));
  return text;
}

// The batch clamped to what one call may hold; InputError when the batch the user asked for
// (--max-batch) does not fit. One row always fits: validate_gdn_layouts caps every buffer's row.
std::int64_t batch_within_memory(const GdnShape& shape, std::int64_t batch, bool asked) {
  const double row_bytes = step_row_bytes(shape);
  const double fit = std::max(1.0, std::floor(kMaxCallBytes / row_bytes));
  if (static_cast<double>(batch) <= fit) return batch;
  if (asked)
    throw InputError(
        Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                   "--max-batch " + std::to_string(batch) + " needs " +
                       gib(row_bytes * static_cast<double>(batch)) +
                       " per runner call, more than the " + gib(kMaxCallBytes) + " a call may hold",
                   "use --max-batch " + std::to_string(static_cast<long long>(fit)) + " or less"});
  return static_cast<std::int64_t>(fit);
}

void validate(const ProbeTarget& target) {
  validate_gdn_layouts(target.consumer, target.shape);
  validate_gdn_layout(target.producer, target.buffer, target.shape);
  const Contract& consumer = layout_of(target.consumer, target.buffer);
  require_same_fields(target.producer, consumer);
  if (target.buffer == GdnBuffer::state &&
      row_stride(target.producer) != row_stride(target.consumer.state))
    throw InputError(Diagnostic{
        SourceLocation{target.producer.file}, Severity::error, "incompatible",
        "state rows are " + std::to_string(row_stride(target.producer)) +
            " elements apart in the producer and " +
            std::to_string(row_stride(target.consumer.state)) + " in the consumer",
        "kernels take the state row stride from their own contract: give both the same"});
}

// Runs of offsets holding producer elements that the kernel never reads (padding and gaps are
// meant to go unread), named by the elements there.
std::vector<OffsetRun> never_read_runs(const Contract& producer, const RowMap& owners,
                                       const std::vector<std::int64_t>& offsets) {
  std::vector<OffsetRun> runs;
  std::vector<std::int64_t> held;  // the element offsets among them, ascending
  for (std::int64_t offset : offsets)
    if (owners.at(offset) < RowMap::kPadding) held.push_back(offset);
  std::sort(held.begin(), held.end());
  for (std::size_t i = 0; i < held.size();) {
    const ElementRef first = producer.element_from_global(owners.at(held[i]));
    std::size_t j = i;
    while (j + 1 < held.size() && held[j + 1] == held[j] + 1 &&
           owners.at(held[j + 1]) == owners.at(held[j]) + 1 &&
           producer.element_from_global(owners.at(held[j + 1])).field == first.field)
      ++j;
    const ElementRef last = producer.element_from_global(owners.at(held[j]));
    runs.push_back({held[i], held[j] + 1,
                    element_range_name(producer.fields[first.field], first.linear, last.linear)});
    i = j + 1;
  }
  return runs;
}

// Everything the decodings of a sweep say, gathered per consumer element and per value head.
struct SweepTally {
  std::vector<std::vector<std::int64_t>> offsets_of;  // per consumer global id
  std::map<std::int64_t, std::set<std::int64_t>> key_heads_of_lane;
  std::map<std::int64_t, std::map<std::size_t, std::int64_t>> consumed_by_lane;  // lane -> field
  std::vector<std::int64_t> not_read;
  std::int64_t unresolved = 0, deviations = 0;
  std::vector<std::string> details;

  void add(const Contract& producer, const RowMap& owners, const Contract& consumer,
           const ProbeDecoding& decoding) {
    switch (decoding.outcome) {
      case ProbeOutcome::not_read:
        not_read.push_back(decoding.offset);
        return;
      case ProbeOutcome::resolved:
        break;
      default: {
        ++unresolved;
        if (details.size() < kMaxListedProbes) {
          const std::uint32_t owner = owners.at(decoding.offset);
          const std::string holds = owner < RowMap::kPadding
                                        ? producer.element_name(producer.element_from_global(owner))
                                        : "no element";
          details.push_back("offset " + std::to_string(decoding.offset) + " (" + holds +
                            "): " + decoding.detail);
        }
        return;
      }
    }
    for (const ElementRef& e : decoding.elements) {
      std::vector<std::int64_t>& seen = offsets_of[static_cast<std::size_t>(consumer.global_id(e))];
      if (std::find(seen.begin(), seen.end(), decoding.offset) == seen.end())
        seen.push_back(decoding.offset);
    }
    bool deviates = false;
    for (const LaneRead& lane : decoding.lanes) {
      deviates |= !lane.matched_prediction;
      for (const ElementRef& e : lane.elements) {
        ++consumed_by_lane[lane.lane][e.field];
        const std::string& field = consumer.fields[e.field].name;
        if (field == "Q" || field == "K") key_heads_of_lane[lane.lane].insert(lane.key_head);
      }
    }
    deviations += deviates ? 1 : 0;
  }

  ReadMap read_map() const {
    ReadMap reads;
    for (const std::vector<std::int64_t>& seen : offsets_of)
      reads.offsets.push_back(seen.size() == 1  ? seen[0]
                              : seen.size() > 1 ? ReadMap::kAmbiguous
                              : unresolved > 0  ? ReadMap::kUnresolved
                                                : ReadMap::kNotRead);
    return reads;
  }
};

// A seeded random sample of `limit` offsets of a row, ascending; every offset when the row has at
// most `limit` (or limit is 0).
std::vector<std::int64_t> sampled_offsets(std::int64_t row_size, std::int64_t limit,
                                          std::uint64_t seed) {
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(row_size));
  std::iota(offsets.begin(), offsets.end(), 0);
  if (limit <= 0 || row_size <= limit) return offsets;
  std::mt19937_64 random(seed);
  for (std::int64_t i = 0; i < limit; ++i) {
    std::uniform_int_distribution<std::int64_t> pick(i, row_size - 1);
    std::swap(offsets[static_cast<std::size_t>(i)],
              offsets[static_cast<std::size_t>(pick(random))]);
  }
  offsets.resize(static_cast<std::size_t>(limit));
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

// A sample stands for the row only where it looked: an element the kernel claims to read from an
// offset that was not probed takes the claim's offset (so it agrees with the static diff by
// construction, and the verdict counts it); one whose claimed offset was probed and did not
// answer stays unread.
std::int64_t place_unprobed_by_claim(ReadMap& reads, const Contract& consumer,
                                     const std::vector<std::int64_t>& probed) {
  const ReadMap claimed = ReadMap::from_contract(consumer);
  std::int64_t placed = 0;
  for (std::size_t id = 0; id < reads.offsets.size(); ++id) {
    if (reads.offsets[id] >= 0 || reads.offsets[id] == ReadMap::kAmbiguous) continue;
    const std::int64_t offset = claimed.offsets[id];
    if (std::binary_search(probed.begin(), probed.end(), offset)) continue;
    reads.offsets[id] = offset;
    ++placed;
  }
  return placed;
}

}  // namespace

std::int64_t default_probe_batch(const GdnShape& shape) {
  const std::int64_t state_bytes =
      shape.state_elements() * static_cast<std::int64_t>(sizeof(float));
  return std::clamp<std::int64_t>(kCpuBatchBytes / std::max<std::int64_t>(state_bytes, 1), 2, 64);
}

ProbeVerdict probe_gdn_runner(GdnRunner& runner, const ProbeTarget& target,
                              const ProbeOptions& options) {
  validate(target);
  const Contract& consumer = layout_of(target.consumer, target.buffer);
  const OneHotValues values = options.values.hot != options.values.base
                                  ? options.values
                                  : default_one_hot_values(target.buffer);
  const std::int64_t row_size = target.producer.row_size;
  const std::int64_t preferred = runner.preferred_probe_batch(target.shape);
  std::int64_t batch = options.max_batch > 0 ? options.max_batch
                       : preferred > 0       ? preferred
                                             : default_probe_batch(target.shape);
  batch = std::clamp<std::int64_t>(batch, 1, std::max<std::int64_t>(row_size, 1));
  batch = batch_within_memory(target.shape, batch, options.max_batch > 0);

  ProbeVerdict verdict;
  verdict.runner = runner.name();
  verdict.buffer = target.buffer;
  for (GdnBuffer other : {GdnBuffer::qkvz, GdnBuffer::ba, GdnBuffer::state})
    if (other != target.buffer)
      verdict.not_probed.emplace_back(other, layout_of(target.consumer, other).name);
  const std::vector<std::int64_t> offsets =
      sampled_offsets(row_size, options.max_probes, options.seed);
  verdict.offsets = row_size;
  verdict.probed = static_cast<std::int64_t>(offsets.size());

  std::vector<RowStrideEvidence> row_evidence;
  if (options.check_row_stride && batch >= 2) {
    ProbeSession rows(runner, target, options, values, kRowCheckBatch);
    const std::vector<std::int64_t> offsets = row_check_offsets(target.producer);
    row_evidence = check_row_stride(rows, consumer, offsets);
    if (!row_evidence.empty()) batch = 1;  // rows other than 0 are read wrong: probe row 0 only
  }

  ProbeSession session(runner, target, options, values, batch);
  verdict.sweep_batch = batch;
  const RowMap owners = RowMap::build(target.producer);
  SweepTally tally;
  tally.offsets_of.resize(static_cast<std::size_t>(consumer.elements()));
  const auto probed = static_cast<std::int64_t>(offsets.size());
  for (std::int64_t start = 0; start < probed; start += batch) {
    std::vector<ProbePoint> points;
    for (std::int64_t row = 0; row < batch && start + row < probed; ++row)
      points.push_back({row, offsets[static_cast<std::size_t>(start + row)]});
    for (const ProbeDecoding& decoding : session.probe(points))
      tally.add(target.producer, owners, consumer, decoding);
    ++verdict.runs;
    if (options.progress) options.progress(std::min(start + batch, probed), probed);
  }

  verdict.read_map = tally.read_map();
  if (probed < row_size)
    verdict.placed_by_claim = place_unprobed_by_claim(verdict.read_map, consumer, offsets);
  const ReadMap& reads = verdict.read_map;
  verdict.reads = compare_reads(target.producer, consumer, reads);
  verdict.static_diff = diff_contracts(target.producer, consumer);
  verdict.unresolved_probes = tally.unresolved;
  verdict.unresolved_details = tally.details;
  verdict.value_deviations = tally.deviations;
  verdict.read_from_several_offsets =
      std::count(reads.offsets.begin(), reads.offsets.end(), ReadMap::kAmbiguous);
  verdict.never_read = never_read_runs(target.producer, owners, tally.not_read);
  for (const auto& [lane, fields] : tally.consumed_by_lane) {
    LaneConsumption consumption{lane, {}, {}};
    for (const auto& [field, count] : fields)
      consumption.elements_per_field.emplace_back(consumer.fields[field].name, count);
    if (auto it = tally.key_heads_of_lane.find(lane); it != tally.key_heads_of_lane.end())
      consumption.key_heads.assign(it->second.begin(), it->second.end());
    verdict.lanes.push_back(std::move(consumption));
  }
  for (const auto& [lane, key_heads] : tally.key_heads_of_lane) {
    const std::int64_t expected = lane / target.shape.G();
    if (key_heads.size() != 1 || *key_heads.begin() != expected)
      verdict.routing.push_back({lane, expected, {key_heads.begin(), key_heads.end()}});
  }
  infer_kernel_row_stride(row_evidence, reads, consumer, row_stride(target.producer));
  for (RowStrideEvidence& item : row_evidence) verdict.row_stride.push_back(item.finding);
  // Probe and diff agree on the rows too: contracts whose rows step differently are a finding the
  // probes must see (or the contracts do not describe the kernel), as `diff` reports them.
  verdict.agrees_with_diff =
      verdict.reads.unresolved == 0 &&
      verdict.reads.misread_mask == verdict.static_diff.misread_mask &&
      verdict.static_diff.row_mismatches.empty() == verdict.row_stride.empty();

  if (options.check_values) {
    ValueCheckOptions check;
    check.seed = options.seed + 1;
    check.out_tolerance = options.out_tolerance;
    check.state_tolerance = options.state_tolerance;
    verdict.values = check_values(runner, target.shape, target.consumer, check);
  }
  return verdict;
}

OneHotValues default_one_hot_values(GdnBuffer buffer) {
  switch (buffer) {
    case GdnBuffer::qkvz:
      return {0.25f, 2.0f};
    case GdnBuffer::ba:
      return {0.25f, 2.0f};
    case GdnBuffer::state:
      return {0.0625f, 8.0f};
  }
  return {0.25f, 2.0f};
}

}  // namespace layoutcheck
