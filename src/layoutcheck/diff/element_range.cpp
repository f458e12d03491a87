#include "layoutcheck/diff/element_range.h"

#include <cstddef>
#include <vector>

namespace layoutcheck {
namespace {

std::string index_name(const std::string& field, const std::vector<std::int64_t>& index) {
  std::string text = field + "[";
  for (std::size_t d = 0; d < index.size(); ++d) {
    if (d > 0) text += ',';
    text += std::to_string(index[d]);
  }
  return text + "]";
}

}  // namespace

std::string element_range_name(const Field& field, std::int64_t first, std::int64_t last) {
  if (field.dims.empty()) return field.name;
  const std::vector<std::int64_t> begin = field.unravel(first);
  const std::vector<std::int64_t> end = field.unravel(last);
  const std::size_t rank = begin.size();
  // The range is a box when, after the first dim where the ends differ, every inner dim runs over
  // its whole extent at both ends.
  std::size_t split = 0;
  while (split + 1 < rank && begin[split] == end[split]) ++split;
  bool is_box = true;
  for (std::size_t d = split + 1; d < rank; ++d)
    is_box = is_box && begin[d] == 0 && end[d] == field.dims[d].size() - 1;
  if (!is_box) return index_name(field.name, begin) + ".." + index_name(field.name, end);

  std::string text = field.name + "[";
  for (std::size_t d = 0; d < rank; ++d) {
    if (d > 0) text += ',';
    const std::int64_t lo = d <= split ? begin[d] : 0;
    const std::int64_t hi = d <= split ? end[d] : field.dims[d].size() - 1;
    text += std::to_string(lo);
    if (hi != lo) text += ':' + std::to_string(hi + 1);
  }
  return text + "]";
}

}  // namespace layoutcheck
