// The layout rules. One pass over every element through Field::for_each_offset fills an owner
// table (offset -> global element id), finding out-of-bounds elements and collisions on the way;
// a second pass over the table finds gaps. Both are linear, so 10^7-element rows take well under
// a second. Each problem is reported once per field (or field pair), with a count, not once per
// element.
#include "layoutcheck/check/lint.h"

#include <algorithm>
#include <limits>
#include <map>

#include "layoutcheck/contract/gather_map.h"

namespace layoutcheck {
namespace {

constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kPadding = kEmpty - 1;
constexpr int kMaxGapReports = 20;

std::string range_text(std::int64_t begin, std::int64_t end) {  // [begin, end)
  return end - begin == 1 ? "offset " + std::to_string(begin)
                          : "offsets " + std::to_string(begin) + "-" + std::to_string(end - 1);
}

class Checker {
 public:
  explicit Checker(const Contract& contract) : contract_(contract) {
    for (const Field& field : contract.fields) {
      first_id_.push_back(total_);
      total_ += field.elements();
    }
  }

  std::vector<Diagnostic> run() {
    check_row_strides();
    // The parser guarantees both; a contract built in code might not.
    if (total_ >= static_cast<std::int64_t>(kPadding) || contract_.row_size < 0 ||
        contract_.row_size > kDefaultElementCap * 64) {
      report(contract_.where, Severity::error, "element-cap",
             "a row holds at most " + std::to_string(kPadding - 1) +
                 " elements and spans at most " + std::to_string(kDefaultElementCap * 64) +
                 " offsets",
             "");
      return std::move(diagnostics_);
    }
    owner_.assign(static_cast<std::size_t>(contract_.row_size), kEmpty);
    for (std::size_t f = 0; f < contract_.fields.size(); ++f) place_field(f);
    for (const Padding& padding : contract_.padding) place_padding(padding);
    report_overlaps_left_out();
    find_gaps();
    return std::move(diagnostics_);
  }

 private:
  void report(SourceLocation where, Severity severity, std::string rule, std::string message,
              std::string fix) {
    diagnostics_.push_back(
        {std::move(where), severity, std::move(rule), std::move(message), std::move(fix)});
  }

  bool may_alias(std::size_t a, std::size_t b) const {
    const auto lists = [&](std::size_t from, std::size_t to) {
      const auto& names = contract_.fields[from].may_alias;
      return std::find(names.begin(), names.end(), contract_.fields[to].name) != names.end();
    };
    return lists(a, b) || lists(b, a);
  }

  std::size_t field_of(std::uint32_t id) const {
    return static_cast<std::size_t>(
        std::upper_bound(first_id_.begin(), first_id_.end(), static_cast<std::int64_t>(id)) -
        first_id_.begin() - 1);
  }

  std::string element(std::size_t field, std::int64_t linear) const {
    return contract_.element_name({field, linear});
  }

  void check_row_strides() {
    // Two row dims stepping by the same stride put different rows on one offset (batch 1 token 0
    // is batch 0 token 1); a name twice makes "which row" ambiguous.
    for (std::size_t i = 0; i < contract_.rows.size(); ++i)
      for (std::size_t j = 0; j < i; ++j) {
        const RowDim& row = contract_.rows[i];
        const RowDim& earlier = contract_.rows[j];
        if (row.name == earlier.name)
          report(row.where, Severity::error, "row-stride",
                 "row dim '" + row.name + "' is declared twice", "give every row dim its own name");
        else if (row.stride == earlier.stride)
          report(row.where, Severity::error, "row-stride",
                 "row dims '" + earlier.name + "' and '" + row.name + "' both step by " +
                     std::to_string(row.stride) + " elements, so their rows land on one offset",
                 "give the outer row dim the stride of a whole inner run of rows (e.g. tokens x "
                 "row_size)");
      }
    for (const RowDim& row : contract_.rows)
      if (row.stride < contract_.row_size)
        report(row.where, Severity::error, "row-stride",
               "row dim '" + row.name + "' has stride " + std::to_string(row.stride) +
                   ", smaller than the row size " + std::to_string(contract_.row_size) +
                   ": consecutive rows would overlap",
               "make the stride at least " + std::to_string(contract_.row_size) +
                   " or drop it (it defaults to row_size)");
  }

  // A stride-0 mode puts all its indices on one offset. Declared self-aliasing (the field lists
  // itself in may_alias) makes it an intended broadcast: a warning, since a kernel writing the
  // field would race. Otherwise it is the overlap, reported at the mode that causes it.
  bool check_zero_strides(std::size_t f) {
    const Field& field = contract_.fields[f];
    for (const Dim& dim : field.dims)
      for (const Mode& mode : dim.modes) {
        if (mode.stride != 0 || mode.size == 1) continue;
        const std::string what = "dim '" + dim.name + "'" +
                                 (dim.modes.size() > 1 ? " (mode '" + mode.name + "')" : "") +
                                 " of field '" + field.name + "'";
        if (may_alias(f, f)) {
          report(mode.where, Severity::warning, "zero-stride",
                 what + " has stride 0: its " + std::to_string(mode.size) +
                     " indices share offsets (declared broadcast)",
                 "fine for a read-only input; a kernel writing " + field.name + " would race");
          return true;
        }
        report(mode.where, Severity::error, "overlap",
               what + " has stride 0, so its " + std::to_string(mode.size) +
                   " indices all map to the same offsets",
               "give it a non-zero stride, or list " + field.name +
                   " in its own may_alias to declare a broadcast");
        return true;
      }
    return false;
  }

  void place_field(std::size_t f) {
    const Field& field = contract_.fields[f];
    const bool self_reported = check_zero_strides(f);
    const std::int64_t row_size = contract_.row_size;
    const std::uint32_t base = static_cast<std::uint32_t>(first_id_[f]);
    std::int64_t out_of_bounds = 0, first_out_linear = 0, first_out_offset = 0;
    struct Collision {
      std::size_t other;
      std::int64_t offset, other_linear, linear, count;
    };
    std::vector<Collision> collisions;  // first collision with each other field, and a count
    std::uint32_t* owner = owner_.data();
    field.for_each_offset([&](std::int64_t linear, std::int64_t offset) {
      if (offset < 0 || offset >= row_size) {  // negative only in contracts built in code
        if (out_of_bounds++ == 0) first_out_linear = linear, first_out_offset = offset;
        return;
      }
      const std::uint32_t current = owner[offset];
      if (current == kEmpty) {
        owner[offset] = base + static_cast<std::uint32_t>(linear);
        return;
      }
      const std::size_t other = field_of(current);
      if ((other == f && self_reported) || may_alias(f, other)) return;
      auto it = std::find_if(collisions.begin(), collisions.end(),
                             [&](const Collision& c) { return c.other == other; });
      if (it == collisions.end())
        collisions.push_back({other, offset, current - first_id_[other], linear, 1});
      else
        ++it->count;
    });
    if (out_of_bounds > 0)
      report(field.where, Severity::error, "out-of-bounds",
             element(f, first_out_linear) + " maps to offset " + std::to_string(first_out_offset) +
                 (first_out_offset < 0 ? ", before the start" : ", past the end") +
                 " of the row (row_size " + std::to_string(row_size) + ")" +
                 (out_of_bounds > 1 ? "; " + std::to_string(out_of_bounds) + " elements of " +
                                          field.name + " are out of bounds"
                                    : ""),
             "fix the offset or strides of " + field.name + ", or declare a larger row_size");
    for (const Collision& c : collisions) {
      const std::string other_name = contract_.fields[c.other].name;
      report(field.where, Severity::error, "overlap",
             element(c.other, c.other_linear) + " and " + element(f, c.linear) +
                 " both map to offset " + std::to_string(c.offset) +
                 (c.count > 1 ? " (" + std::to_string(c.count) + " offsets shared by " +
                                    (c.other == f ? field.name + " with itself"
                                                  : other_name + " and " + field.name) +
                                    ")"
                              : ""),
             "fix the strides or offsets, or declare the aliasing with 'may_alias: [" + other_name +
                 "]' on " + field.name);
    }
  }

  void place_padding(const Padding& padding) {
    const std::int64_t row_size = contract_.row_size;
    const std::int64_t end = padding.offset + padding.size;
    if (end > row_size)
      report(padding.where, Severity::error, "out-of-bounds",
             "padding '" + padding.name + "' covers " + range_text(padding.offset, end) +
                 ", past the end of the row (row_size " + std::to_string(row_size) + ")",
             "shrink the padding or declare a larger row_size");
    std::int64_t covered = 0, first = -1;
    std::uint32_t first_owner = kEmpty;
    for (std::int64_t offset = std::max<std::int64_t>(padding.offset, 0);
         offset < std::min(end, row_size); ++offset) {
      std::uint32_t& owner = owner_[static_cast<std::size_t>(offset)];
      if (owner == kEmpty) {
        owner = kPadding;
      } else if (covered++ == 0) {
        first = offset;
        first_owner = owner;
      }
    }
    if (covered == 0) return;
    // A padded grid is one padding region per run of padding slots: a dim padded whose outer
    // strides leave it no room would otherwise report every region, 10^5 lines for one mistake.
    OverlapsLeftOut& left_out = overlaps_left_out_[padding.name];
    if (++left_out.reported > kMaxGapReports) {
      if (left_out.regions++ == 0) left_out.where = padding.where;
      left_out.of_padded_grid = padding.of_padded_grid;
      left_out.offsets += covered;
      return;
    }
    const std::string held =
        first_owner == kPadding
            ? "other padding"
            : element(field_of(first_owner), first_owner - first_id_[field_of(first_owner)]);
    report(padding.where, Severity::error, "padding-overlap",
           "padding '" + padding.name + "' covers offset " + std::to_string(first) +
               ", which holds " + held + " (" + std::to_string(covered) +
               " offsets of the padding are already used)",
           overlap_fix(padding.of_padded_grid));
  }

  static std::string overlap_fix(bool of_padded_grid) {
    return of_padded_grid
               ? "a padded dim's slots must get offsets of their own: the strides of the dims "
                 "outside it step over its padded size (pad_before + size + pad_after)"
               : "padding declares offsets no element uses: move or shrink it";
  }

  void report_overlaps_left_out() {
    for (const auto& [name, left_out] : overlaps_left_out_)
      if (left_out.regions > 0)
        report(left_out.where, Severity::error, "padding-overlap",
               "... and " + std::to_string(left_out.regions) + " more regions of padding '" + name +
                   "' cover offsets already used (" + std::to_string(left_out.offsets) +
                   " offsets)",
               overlap_fix(left_out.of_padded_grid));
  }

  void find_gaps() {
    const std::int64_t row_size = contract_.row_size;
    int reported = 0;
    std::int64_t more_gaps = 0, more_offsets = 0;
    for (std::int64_t begin = 0; begin < row_size;) {
      if (owner_[static_cast<std::size_t>(begin)] != kEmpty) {
        ++begin;
        continue;
      }
      std::int64_t end = begin;
      while (end < row_size && owner_[static_cast<std::size_t>(end)] == kEmpty) ++end;
      if (reported++ < kMaxGapReports) {
        report(gap_location(begin, end), Severity::error, "gap",
               range_text(begin, end) + " hold" + (end - begin == 1 ? "s" : "") + " no element",
               "declare the gap under 'padding:' ({name: ..., offset: " + std::to_string(begin) +
                   ", size: " + std::to_string(end - begin) + "}) or fix the offsets and strides");
      } else {
        ++more_gaps;
        more_offsets += end - begin;
      }
      begin = end;
    }
    if (more_gaps > 0)
      report(contract_.where, Severity::error, "gap",
             "and " + std::to_string(more_gaps) + " more gaps (" + std::to_string(more_offsets) +
                 " offsets) hold no element",
             "declare them under 'padding:' or fix the offsets and strides");
  }

  // The field just before a gap is the likeliest culprit; a trailing gap blames row_size.
  SourceLocation gap_location(std::int64_t begin, std::int64_t end) const {
    if (end == contract_.row_size && contract_.row_size_declared) return contract_.row_size_where;
    for (std::int64_t at : {begin - 1, end}) {
      if (at < 0 || at >= contract_.row_size) continue;
      const std::uint32_t owner = owner_[static_cast<std::size_t>(at)];
      if (owner != kEmpty && owner != kPadding) return contract_.fields[field_of(owner)].where;
    }
    return contract_.where;
  }

  const Contract& contract_;
  std::vector<std::int64_t> first_id_;
  std::int64_t total_ = 0;
  std::vector<std::uint32_t> owner_;
  std::vector<Diagnostic> diagnostics_;
  struct OverlapsLeftOut {
    int reported = 0;  // regions of the padding that overlapped, reported or not
    std::int64_t regions = 0, offsets = 0;  // those not reported one by one
    SourceLocation where;
    bool of_padded_grid = false;
  };
  std::map<std::string, OverlapsLeftOut> overlaps_left_out_;  // by padding name
};

}  // namespace

namespace {

// A declared gather: its map generated from the contract and proven (contract/gather_map.h).
void check_gather(const Contract& contract, std::vector<Diagnostic>& diagnostics) {
  const SourceLocation& where = contract.gather->where;
  try {
    const GatherMap map = make_gather_map(contract);
    const std::vector<std::string> problems = check_gather_map(contract, map.slots);
    for (const std::string& problem : problems)
      diagnostics.push_back({where, Severity::error, "gather", "the gather map: " + problem,
                             "every token of the grid must have exactly one slot"});
    if (problems.empty())
      diagnostics.push_back(
          {where, Severity::note, "gather", "the gather map: " + gather_summary(map), ""});
  } catch (const InputError& error) {
    for (const Diagnostic& diagnostic : error.diagnostics()) diagnostics.push_back(diagnostic);
  }
}

}  // namespace

std::vector<Diagnostic> check_contract(const Contract& contract) {
  std::vector<Diagnostic> diagnostics = Checker(contract).run();
  if (contract.gather && !has_errors(diagnostics)) check_gather(contract, diagnostics);
  return diagnostics;
}

std::vector<Diagnostic> lint_file(const std::string& path, const LoadOptions& options) {
  ParseResult parsed = parse_contract_file(path, options);
  if (parsed.contract) {
    std::vector<Diagnostic> checks = check_contract(*parsed.contract);
    parsed.diagnostics.insert(parsed.diagnostics.end(), checks.begin(), checks.end());
  }
  return std::move(parsed.diagnostics);
}

}  // namespace layoutcheck
