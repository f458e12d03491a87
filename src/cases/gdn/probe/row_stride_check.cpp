#include "cases/gdn/probe/row_stride_check.h"

#include <algorithm>
#include <set>
#include <string>

namespace layoutcheck {
namespace {

std::string names(const Contract& consumer, const std::vector<ProbeDecoding>& decodings) {
  if (decodings.empty()) return "nothing";
  std::string text;
  for (const ProbeDecoding& decoding : decodings) {
    std::string elements;
    for (const ElementRef& e : decoding.elements)
      elements += (elements.empty() ? "" : ", ") + consumer.element_name(e);
    if (decoding.outcome != ProbeOutcome::resolved) elements = "an unresolved response";
    text += (text.empty() ? "" : "; ") + ("row " + std::to_string(decoding.row) + ": " +
                                          (elements.empty() ? "no element" : elements));
  }
  return text;
}

// What a decoding says, independent of the row it came from.
struct Reading {
  ProbeOutcome outcome;
  std::vector<std::int64_t> elements;  // global ids, sorted
  std::vector<std::pair<std::int64_t, std::int64_t>> lanes;
  friend bool operator==(const Reading&, const Reading&) = default;
};

Reading reading(const Contract& consumer, const ProbeDecoding& decoding) {
  Reading result{decoding.outcome, {}, {}};
  for (const ElementRef& e : decoding.elements) result.elements.push_back(consumer.global_id(e));
  for (const LaneRead& lane : decoding.lanes) result.lanes.emplace_back(lane.lane, lane.key_head);
  std::sort(result.elements.begin(), result.elements.end());
  std::sort(result.lanes.begin(), result.lanes.end());
  return result;
}

}  // namespace

std::vector<std::int64_t> row_check_offsets(const Contract& producer) {
  std::set<std::int64_t> offsets;
  for (const Field& field : producer.fields)
    if (field.elements() > 0) offsets.insert(field.offset_of_linear(0));
  if (producer.row_size > 0) offsets.insert(producer.row_size / 2);
  return {offsets.begin(), offsets.end()};
}

std::vector<RowStrideEvidence> check_row_stride(ProbeSession& session, const Contract& consumer,
                                                std::span<const std::int64_t> offsets) {
  std::vector<RowStrideEvidence> evidence;
  const std::int64_t last = session.batch() - 1;
  for (std::int64_t offset : offsets) {
    const std::vector<ProbeDecoding> row_zero = session.probe_all_rows({0, offset});
    const bool zero_ok = row_zero.empty() || (row_zero.size() == 1 && row_zero[0].row == 0);
    std::vector<std::int64_t> rows{1};
    if (last > 1) rows.push_back(last);
    for (std::int64_t row : rows) {
      const std::vector<ProbeDecoding> here = session.probe_all_rows({row, offset});
      bool consistent = zero_ok && here.size() == row_zero.size();
      if (consistent && !here.empty())
        consistent =
            here[0].row == row && reading(consumer, here[0]) == reading(consumer, row_zero[0]);
      if (consistent) continue;
      RowStrideEvidence item;
      item.finding.row = row;
      item.finding.offset = offset;
      for (const ProbeDecoding& decoding : here)
        item.finding.responding_rows.push_back(decoding.row);
      item.finding.in_row_zero = names(consumer, row_zero);
      item.finding.here = names(consumer, here);
      if (here.size() == 1 && here[0].outcome == ProbeOutcome::resolved) {
        item.responding_row = here[0].row;
        item.elements = here[0].elements;
      }
      evidence.push_back(std::move(item));
      break;  // one finding per offset is enough
    }
  }
  return evidence;
}

void infer_kernel_row_stride(std::vector<RowStrideEvidence>& evidence, const ReadMap& row_zero,
                             const Contract& consumer, std::int64_t producer_row_stride) {
  for (RowStrideEvidence& item : evidence) {
    if (item.responding_row <= 0 || item.elements.empty()) continue;
    std::set<std::int64_t> strides;
    bool pinned = true;
    for (const ElementRef& e : item.elements) {
      const std::int64_t read_at =
          row_zero.offsets[static_cast<std::size_t>(consumer.global_id(e))];
      const std::int64_t distance =
          item.finding.row * producer_row_stride + item.finding.offset - read_at;
      if (read_at < 0 || distance % item.responding_row != 0) {
        pinned = false;
        break;
      }
      strides.insert(distance / item.responding_row);
    }
    if (pinned && strides.size() == 1) item.finding.kernel_row_stride = *strides.begin();
  }
}

}  // namespace layoutcheck
