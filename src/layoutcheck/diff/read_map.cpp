#include "layoutcheck/diff/read_map.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "layoutcheck/contract/join.h"
#include "layoutcheck/contract/row_map.h"
#include "layoutcheck/diff/element_range.h"

namespace layoutcheck {
namespace {

// Global id of element [0...] of each field, plus the total at the end.
std::vector<std::int64_t> field_starts(const Contract& contract) {
  std::vector<std::int64_t> starts{0};
  for (const Field& field : contract.fields) starts.push_back(starts.back() + field.elements());
  return starts;
}

// Field index of a global id; remembers the last hit because consecutive lookups mostly stay in
// one field.
class FieldLookup {
 public:
  explicit FieldLookup(const std::vector<std::int64_t>& starts) : starts_(starts) {}
  std::size_t operator()(std::int64_t global) {
    if (global < starts_[cached_] || global >= starts_[cached_ + 1])
      cached_ = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), global) -
                                         starts_.begin() - 1);
    return cached_;
  }

 private:
  const std::vector<std::int64_t>& starts_;
  std::size_t cached_ = 0;
};

// What the producer holds at one offset the consumer reads.
enum class Source { element, padding, nothing, beyond, unresolved };
struct Held {
  Source source = Source::nothing;
  std::int64_t id = 0;  // producer global id (element) or padding index (padding)
};

// Padding regions by offset, for "which region is this offset in".
class PaddingLookup {
 public:
  explicit PaddingLookup(const std::vector<Padding>& padding) : padding_(padding) {
    order_.resize(padding.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::sort(order_.begin(), order_.end(),
              [&](std::size_t a, std::size_t b) { return padding[a].offset < padding[b].offset; });
  }
  // Index into Contract::padding, or -1.
  std::int64_t region_of(std::int64_t offset) const {
    auto it =
        std::upper_bound(order_.begin(), order_.end(), offset,
                         [&](std::int64_t o, std::size_t i) { return o < padding_[i].offset; });
    if (it == order_.begin()) return -1;
    const Padding& region = padding_[*--it];
    return offset < region.offset + region.size ? static_cast<std::int64_t>(*it) : -1;
  }

 private:
  const std::vector<Padding>& padding_;
  std::vector<std::size_t> order_;
};

bool is_probe_marker(std::int64_t offset) {
  return offset == ReadMap::kUnresolved || offset == ReadMap::kAmbiguous ||
         offset == ReadMap::kNotRead;
}

// A misread run being grown, element by element.
struct OpenRun {
  std::int64_t consumer_first = 0, consumer_last = 0;  // consumer linear indices, one field
  std::int64_t offset_begin = 0, offset_last = 0;
  Held first, last;
  std::size_t producer_field = 0;
};

std::string rows_text(const Contract& contract) {
  std::string text;
  for (const RowDim& row : contract.rows)
    text += (text.empty() ? "" : ", ") + row.name + " (stride " + std::to_string(row.stride) + ")";
  return text;
}

// Row dims position by position, outermost first. A contract without row dims describes one row
// and says nothing about how rows follow each other, so there is nothing to compare.
void compare_rows(const Contract& producer, const Contract& consumer, MisreadReport& report) {
  if (producer.rows.empty() || consumer.rows.empty()) {
    const Contract& silent = producer.rows.empty() ? producer : consumer;
    if (!producer.rows.empty() || !consumer.rows.empty())
      report.notes.push_back(std::string(&silent == &producer ? "the producer" : "the consumer") +
                             " declares no row dims, so row strides are not compared");
    return;
  }
  if (producer.rows.size() != consumer.rows.size()) {
    report.row_mismatches.push_back("row dims: producer " + rows_text(producer) + ", consumer " +
                                    rows_text(consumer) +
                                    ": rows after the first are not where the consumer reads them");
    return;
  }
  for (std::size_t r = 0; r < producer.rows.size(); ++r) {
    const RowDim& written = producer.rows[r];
    const RowDim& read = consumer.rows[r];
    if (written.stride != read.stride)
      report.row_mismatches.push_back(
          "row dim '" + read.name + "': producer stride " + std::to_string(written.stride) +
          ", consumer stride " + std::to_string(read.stride) +
          " elements: every row after the first is read from the wrong place");
    else if (written.name != read.name)
      report.notes.push_back("row dim " + std::to_string(r) + " is '" + written.name +
                             "' in the producer, '" + read.name + "' in the consumer");
  }
}

}  // namespace

ReadMap ReadMap::from_contract(const Contract& consumer) {
  ReadMap reads;
  reads.offsets.resize(static_cast<std::size_t>(consumer.elements()));
  std::int64_t start = 0;
  for (const Field& field : consumer.fields) {
    std::int64_t* out = reads.offsets.data() + start;
    field.for_each_offset(
        [out](std::int64_t linear, std::int64_t offset) { out[linear] = offset; });
    start += field.elements();
  }
  return reads;
}

void require_same_fields(const Contract& producer, const Contract& consumer) {
  std::vector<std::string> differences;
  if (producer.buffer != consumer.buffer)
    differences.push_back("buffer: producer '" + producer.buffer + "', consumer '" +
                          consumer.buffer + "'");
  if (producer.dtype != consumer.dtype)
    differences.push_back("dtype: producer " + std::string(dtype_name(producer.dtype)) +
                          ", consumer " + std::string(dtype_name(consumer.dtype)));
  std::vector<std::string> missing, extra;
  for (const Field& field : producer.fields)
    if (!consumer.find_field(field.name)) missing.push_back(field.name);
  for (const Field& field : consumer.fields)
    if (!producer.find_field(field.name)) extra.push_back(field.name);
  if (!missing.empty()) differences.push_back("fields missing in the consumer: " + join(missing));
  if (!extra.empty()) differences.push_back("fields only in the consumer: " + join(extra));
  for (const Field& field : producer.fields) {
    const Field* other = consumer.find_field(field.name);
    if (other && other->shape() != field.shape())
      differences.push_back("field " + field.name + ": producer " + shape_text(field.shape()) +
                            ", consumer " + shape_text(other->shape()));
  }
  if (differences.empty()) return;
  const std::string who = (producer.name.empty() ? producer.file : producer.name) +
                          " (producer) and " +
                          (consumer.name.empty() ? consumer.file : consumer.name) + " (consumer)";
  throw InputError(Diagnostic{SourceLocation{consumer.file}, Severity::error, "incompatible",
                              "cannot compare " + who + ": " + join(differences, "; "),
                              "diff contracts of the same buffer, with the same sizes (--set)"});
}

MisreadReport compare_reads(const Contract& producer, const Contract& consumer,
                            const ReadMap& reads) {
  require_same_fields(producer, consumer);
  if (static_cast<std::int64_t>(reads.offsets.size()) != consumer.elements())
    throw std::invalid_argument("compare_reads: the read map has " +
                                std::to_string(reads.offsets.size()) + " entries, the consumer " +
                                std::to_string(consumer.elements()) + " elements");

  MisreadReport report;
  report.producer = producer.name;
  report.consumer = consumer.name;
  report.producer_file = producer.file;
  report.consumer_file = consumer.file;
  report.elements = consumer.elements();
  report.misread_mask.assign(static_cast<std::size_t>(report.elements), 0);
  compare_rows(producer, consumer, report);
  if (producer.row_size != consumer.row_size)
    report.notes.push_back("rows differ in size: producer " + std::to_string(producer.row_size) +
                           ", consumer " + std::to_string(consumer.row_size) + " elements");

  const RowMap producer_rows = RowMap::build(producer);
  const PaddingLookup padding(producer.padding);
  const std::vector<std::int64_t> producer_starts = field_starts(producer);
  const std::vector<std::int64_t> consumer_starts = field_starts(consumer);
  // A producer element is the consumer element with the same field name and linear index:
  // consumer global id = producer global id + shift[producer field].
  std::vector<std::int64_t> shift(producer.fields.size());
  for (std::size_t f = 0; f < producer.fields.size(); ++f) {
    const auto consumer_field = static_cast<std::size_t>(
        consumer.find_field(producer.fields[f].name) - consumer.fields.data());
    shift[f] = consumer_starts[consumer_field] - producer_starts[f];
  }
  FieldLookup producer_field_of(producer_starts);
  // Where the producer declares aliasing, the row map names only the first of the elements on an
  // offset; a read is then also right when the consumer's element itself lives there.
  const bool producer_aliases = std::any_of(producer.fields.begin(), producer.fields.end(),
                                            [](const Field& f) { return !f.may_alias.empty(); });

  auto held_at = [&](std::int64_t offset) -> Held {
    if (is_probe_marker(offset)) return {Source::unresolved, 0};
    if (offset < 0 || offset >= producer_rows.size()) return {Source::beyond, 0};
    const std::uint32_t owner = producer_rows.at(offset);
    if (owner == RowMap::kEmpty) return {Source::nothing, 0};
    if (owner == RowMap::kPadding) return {Source::padding, padding.region_of(offset)};
    return {Source::element, owner};
  };

  auto producer_name = [&](const OpenRun& run) -> std::string {
    switch (run.first.source) {
      case Source::element: {
        const std::int64_t start = producer_starts[run.producer_field];
        return element_range_name(producer.fields[run.producer_field], run.first.id - start,
                                  run.last.id - start);
      }
      case Source::padding: {
        if (run.first.id < 0) return "padding";
        const Padding& region = producer.padding[static_cast<std::size_t>(run.first.id)];
        const std::int64_t lo = run.offset_begin - region.offset;
        const std::int64_t hi = run.offset_last - region.offset;
        return "padding '" + region.name + "'[" + std::to_string(lo) +
               (hi > lo ? ":" + std::to_string(hi + 1) : "") + "]";
      }
      case Source::beyond:
        return "beyond the row";
      default:
        return "nothing";
    }
  };

  for (std::size_t cf = 0; cf < consumer.fields.size(); ++cf) {
    const Field& field = consumer.fields[cf];
    FieldReport field_report{field.name, field.elements(), 0, 0};
    const std::int64_t start = consumer_starts[cf];
    OpenRun run;
    bool run_open = false;
    auto close_run = [&] {
      if (!run_open) return;
      run_open = false;
      ++report.runs_total;
      if (report.runs.size() >= kMaxStoredRuns) return;
      report.runs.push_back({run.offset_begin, run.offset_last + 1, producer_name(run),
                             element_range_name(field, run.consumer_first, run.consumer_last)});
    };

    for (std::int64_t linear = 0; linear < field.elements(); ++linear) {
      const std::int64_t global = start + linear;
      const std::int64_t offset = reads.offsets[static_cast<std::size_t>(global)];
      const Held held = held_at(offset);
      if (held.source == Source::unresolved) {
        close_run();
        ++field_report.unresolved;
        if (report.unresolved_elements.size() < kMaxUnresolvedNames)
          report.unresolved_elements.push_back(consumer.element_name({cf, linear}));
        continue;
      }
      std::size_t producer_field = 0;
      if (held.source == Source::element) {
        producer_field = producer_field_of(held.id);
        const bool as_written =
            held.id + shift[producer_field] == global ||
            (producer_aliases &&
             producer.find_field(field.name)->offset_of_linear(linear) == offset);
        if (as_written) {
          close_run();
          continue;
        }
      }
      ++field_report.misread;
      report.misread_mask[static_cast<std::size_t>(global)] = 1;

      // Extend the open run when offset, producer element and consumer element all step by one.
      bool extends = run_open && offset == run.offset_last + 1 && held.source == run.last.source;
      if (extends && held.source == Source::element)
        extends = held.id == run.last.id + 1 && producer_field == run.producer_field;
      if (extends && held.source == Source::padding) extends = held.id == run.last.id;
      if (extends) {
        run.consumer_last = linear;
        run.offset_last = offset;
        run.last = held;
        continue;
      }
      close_run();
      run = OpenRun{linear, linear, offset, offset, held, held, producer_field};
      run_open = true;
    }
    close_run();
    report.misread += field_report.misread;
    report.unresolved += field_report.unresolved;
    report.fields.push_back(std::move(field_report));
  }
  return report;
}

}  // namespace layoutcheck
