#include "layoutcheck/diff/structure.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "layoutcheck/contract/join.h"

namespace layoutcheck {
namespace {

// One mode of a field with the name a reviewer knows it by.
struct NamedMode {
  std::string name;
  std::int64_t size = 1;
  std::int64_t stride = 0;
};

bool any_transformed(const Field& field) {
  return std::any_of(field.dims.begin(), field.dims.end(),
                     [](const Dim& dim) { return dim.transformed(); });
}

// Every mode of more than one index, dims outermost first and each dim's modes slowest first:
// the loop order of the field's row-major logical index.
std::vector<NamedMode> loop_modes(const Field& field) {
  std::vector<NamedMode> modes;
  for (const Dim& dim : field.dims)
    for (std::size_t m = dim.modes.size(); m-- > 0;)
      if (dim.modes[m].size > 1)
        modes.push_back({dim.mode_name(m), dim.modes[m].size, dim.modes[m].stride});
  return modes;
}

// The loop modes with each pair of neighbours merged where the faster one ends exactly where the
// slower one steps. Two fields with equal offsets and equal coalesced modes map every logical
// index to the same offset (strides are positive, so the form is unique).
std::vector<std::pair<std::int64_t, std::int64_t>> coalesced(const Field& field) {
  std::vector<std::pair<std::int64_t, std::int64_t>> merged;  // (size, stride), fastest first
  const std::vector<NamedMode> modes = loop_modes(field);
  for (auto mode = modes.rbegin(); mode != modes.rend(); ++mode) {
    if (!merged.empty() && merged.back().first * merged.back().second == mode->stride)
      merged.back().first *= mode->size;
    else
      merged.emplace_back(mode->size, mode->stride);
  }
  return merged;
}

// The field's elements fill [offset, offset + elements) exactly: sorted by stride, each mode
// steps by the extent of the faster ones.
bool compact(const Field& field) {
  if (any_transformed(field)) return false;
  std::vector<NamedMode> modes = loop_modes(field);
  std::sort(modes.begin(), modes.end(),
            [](const NamedMode& a, const NamedMode& b) { return a.stride < b.stride; });
  std::int64_t extent = 1;
  for (const NamedMode& mode : modes) {
    if (mode.stride != extent) return false;
    extent *= mode.size;
  }
  return true;
}

bool same_mode_sizes(const Field& producer, const Field& consumer) {
  for (std::size_t d = 0; d < consumer.dims.size(); ++d) {
    const std::vector<Mode>& p = producer.dims[d].modes;
    const std::vector<Mode>& c = consumer.dims[d].modes;
    if (p.size() != c.size()) return false;
    for (std::size_t m = 0; m < c.size(); ++m)
      if (p[m].size != c[m].size) return false;
  }
  return true;
}

// "(48):(128)", "(3,16):(128,1024)": one dim's modes, fastest first as layout_string prints them.
std::string dim_layout(const Dim& dim) {
  std::string sizes, strides;
  for (const Mode& mode : dim.modes) {
    sizes += (sizes.empty() ? "" : ",") + std::to_string(mode.size);
    strides += (strides.empty() ? "" : ",") + std::to_string(mode.stride);
  }
  return "(" + sizes + "):(" + strides + ")";
}

std::string signed_text(std::int64_t value) {
  return (value > 0 ? "+" : "") + std::to_string(value);
}

std::vector<std::string> changes_between(const Field& producer, const Field& consumer) {
  std::vector<std::string> changes;
  if (producer.offset != consumer.offset)
    changes.push_back("offset " + std::to_string(producer.offset) + " -> " +
                      std::to_string(consumer.offset));
  for (std::size_t d = 0; d < consumer.dims.size(); ++d) {
    const Dim& p = producer.dims[d];
    const Dim& c = consumer.dims[d];
    const bool same_sizes =
        p.modes.size() == c.modes.size() &&
        std::equal(p.modes.begin(), p.modes.end(), c.modes.begin(),
                   [](const Mode& a, const Mode& b) { return a.size == b.size; });
    if (!same_sizes) {
      changes.push_back(c.name + " " + dim_layout(p) + " -> " + dim_layout(c));
      continue;
    }
    for (std::size_t m = c.modes.size(); m-- > 0;)  // slowest first, as a reader scans
      if (p.modes[m].stride != c.modes[m].stride && c.modes[m].size > 1)
        changes.push_back(c.mode_name(m) + " stride " + std::to_string(p.modes[m].stride) + " -> " +
                          std::to_string(c.modes[m].stride));
    if (p.pad_before != c.pad_before || p.pad_after != c.pad_after || p.shift != c.shift)
      changes.push_back(c.name + " padding or shift differs");
  }
  return changes;
}

// Mode names, slowest first, ordered by the given strides (ties keep their loop order).
std::vector<std::string> order_by_stride(std::vector<NamedMode> modes) {
  std::stable_sort(modes.begin(), modes.end(),
                   [](const NamedMode& a, const NamedMode& b) { return a.stride > b.stride; });
  std::vector<std::string> names;
  for (const NamedMode& mode : modes) names.push_back(mode.name);
  return names;
}

// @pre same_mode_sizes(producer, consumer); names are the consumer's for both orders.
std::string permutation_text(const Field& producer, const Field& consumer) {
  std::vector<NamedMode> modes = loop_modes(consumer);
  std::vector<NamedMode> as_produced = modes;
  const std::vector<NamedMode> producer_modes = loop_modes(producer);
  for (std::size_t i = 0; i < as_produced.size() && i < producer_modes.size(); ++i)
    as_produced[i].stride = producer_modes[i].stride;
  const std::vector<std::string> before = order_by_stride(as_produced);
  const std::vector<std::string> after = order_by_stride(modes);
  std::vector<std::size_t> moved;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (before[i] != after[i]) moved.push_back(i);
  const std::string orders = join(before, ",") + " -> " + join(after, ",") + ", slowest first";
  if (moved.size() == 2)
    return "mode permutation, " + before[moved[0]] + " and " + before[moved[1]] + " swap places (" +
           orders + ")";
  return "mode permutation (" + orders + ")";
}

// The dims of one mode on one side and several on the other.
std::string split_or_merge_text(const Field& producer, const Field& consumer, LayoutChange& kind) {
  std::vector<std::string> split, merged;
  for (std::size_t d = 0; d < consumer.dims.size(); ++d) {
    const Dim& p = producer.dims[d];
    const Dim& c = consumer.dims[d];
    std::vector<std::string> names;
    if (p.modes.size() == 1 && c.modes.size() > 1) {
      for (std::size_t m = 0; m < c.modes.size(); ++m) names.push_back(c.mode_name(m));
      split.push_back(c.name + " into " + join(names, ","));
    } else if (p.modes.size() > 1 && c.modes.size() == 1) {
      for (std::size_t m = 0; m < p.modes.size(); ++m) names.push_back(p.mode_name(m));
      merged.push_back(c.name + "'s modes " + join(names, ",") + " into one");
    } else if (p.modes.size() != c.modes.size()) {
      return "";  // split into other modes on both sides: no one name for it
    }
  }
  if (!split.empty() && merged.empty()) {
    kind = LayoutChange::dim_split;
    return "split of " + join(split, ", ");
  }
  if (!merged.empty() && split.empty()) {
    kind = LayoutChange::dim_merge;
    return "merge of " + join(merged, ", ");
  }
  return "";
}

// The fields share one mode that tiles the row into groups, each group holding a part of every
// field (Qwen3-Next's [q k v z] per key head): that mode, if the contract has one.
struct Grouping {
  std::string mode;
  std::int64_t groups = 0;
  std::int64_t stride = 0;
};

std::optional<Grouping> interleaving(const Contract& contract) {
  if (contract.fields.size() < 2) return std::nullopt;
  for (const Field& field : contract.fields)
    if (compact(field) || any_transformed(field)) return std::nullopt;
  for (const NamedMode& candidate : loop_modes(contract.fields.front())) {
    if (candidate.size * candidate.stride != contract.row_size) continue;
    const bool shared =
        std::all_of(contract.fields.begin(), contract.fields.end(), [&](const Field& field) {
          const std::vector<NamedMode> modes = loop_modes(field);
          return field.offset < candidate.stride &&
                 std::any_of(modes.begin(), modes.end(), [&](const NamedMode& mode) {
                   return mode.size == candidate.size && mode.stride == candidate.stride;
                 });
        });
    if (shared) return Grouping{candidate.name, candidate.size, candidate.stride};
  }
  return std::nullopt;
}

bool group_major(const Contract& contract) {
  return contract.fields.size() >= 2 &&
         std::all_of(contract.fields.begin(), contract.fields.end(), compact);
}

std::string field_names(const Contract& contract) {
  std::vector<std::string> names;
  for (const Field& field : contract.fields) names.push_back(field.name);
  return join(names, ", ");
}

std::string groups_text(const Grouping& grouping) {
  return "per " + grouping.mode + " (" + std::to_string(grouping.groups) + " groups of " +
         std::to_string(grouping.stride) + " offsets)";
}

FieldStructure compare_field(const Field& producer, const Field& consumer,
                             const std::string& interleave_classification) {
  FieldStructure field;
  field.field = consumer.name;
  field.producer_layout = producer.layout_string();
  field.consumer_layout = consumer.layout_string();
  field.producer_offset = producer.offset;
  field.consumer_offset = consumer.offset;
  field.changes = changes_between(producer, consumer);
  if (any_transformed(producer) || any_transformed(consumer)) {
    const bool same =
        field.producer_layout == field.consumer_layout && producer.offset == consumer.offset;
    field.kind = same ? LayoutChange::same : LayoutChange::unclassified;
    return field;
  }
  if (coalesced(producer) == coalesced(consumer)) {
    if (producer.offset == consumer.offset) {
      field.kind = LayoutChange::same;
      if (field.producer_layout != field.consumer_layout)
        field.classification = "same offsets, written differently";
    } else {
      field.kind = LayoutChange::offset_shift;
      field.classification =
          "offset shift, the field moved by " + signed_text(consumer.offset - producer.offset);
    }
    return field;
  }
  if (!interleave_classification.empty()) {
    field.kind = LayoutChange::interleave;
    field.classification = interleave_classification;
    return field;
  }
  if (same_mode_sizes(producer, consumer)) {
    if (producer.offset == consumer.offset && compact(producer) && compact(consumer)) {
      field.kind = LayoutChange::mode_permutation;
      field.classification = permutation_text(producer, consumer);
    } else {
      field.kind = LayoutChange::stride_change;
      field.classification = "stride change";
      if (producer.offset != consumer.offset)
        field.classification +=
            ", and the field moved by " + signed_text(consumer.offset - producer.offset);
    }
    return field;
  }
  field.kind = LayoutChange::unclassified;
  field.classification = split_or_merge_text(producer, consumer, field.kind);
  return field;
}

}  // namespace

std::string_view layout_change_name(LayoutChange change) {
  switch (change) {
    case LayoutChange::same:
      return "same";
    case LayoutChange::offset_shift:
      return "offset-shift";
    case LayoutChange::stride_change:
      return "stride-change";
    case LayoutChange::mode_permutation:
      return "mode-permutation";
    case LayoutChange::dim_split:
      return "dim-split";
    case LayoutChange::dim_merge:
      return "dim-merge";
    case LayoutChange::interleave:
      return "interleave";
    case LayoutChange::unclassified:
      break;
  }
  return "unclassified";
}

bool StructuralSummary::all_same() const {
  return std::all_of(fields.begin(), fields.end(),
                     [](const FieldStructure& field) { return field.kind == LayoutChange::same; });
}

StructuralSummary compare_structure(const Contract& producer, const Contract& consumer) {
  StructuralSummary summary;
  std::string per_field;
  if (const std::optional<Grouping> grouping = interleaving(consumer);
      grouping && group_major(producer)) {
    summary.buffer = "group-major -> interleaved: the producer keeps each of " +
                     field_names(producer) + " whole, the consumer interleaves them " +
                     groups_text(*grouping);
    per_field = "group-major -> interleaved per " + grouping->mode;
  } else if (const std::optional<Grouping> produced = interleaving(producer);
             produced && group_major(consumer)) {
    summary.buffer = "interleaved -> group-major: the producer interleaves " +
                     field_names(producer) + " " + groups_text(*produced) +
                     ", the consumer keeps each whole";
    per_field = "interleaved per " + produced->mode + " -> group-major";
  }
  for (const Field& field : consumer.fields)
    if (const Field* held = producer.find_field(field.name))  // else require_same_fields says so
      summary.fields.push_back(compare_field(*held, field, per_field));
  return summary;
}

}  // namespace layoutcheck
