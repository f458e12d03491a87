// Offset <-> element, with the arithmetic shown: what `layoutcheck explain` prints.
//
//   qwen3_next.qkvz: offset 2440 holds V[7,8]
//     field V: ((3,16),128):((128,1024),1) at offset 256
//     hv=7 -> r=1 (stride 128), h=2 (stride 1024)
//     v=8 (stride 1)
//     offset = 256 + 1*128 + 2*1024 + 8*1 = 2440
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/contract/row_map.h"
#include "layoutcheck/json/json.h"

namespace layoutcheck {

// How one logical dim index splits over its modes.
struct ModeShare {
  std::string name;
  std::int64_t index = 0;  // this mode's coordinate
  std::int64_t size = 0;
  std::int64_t stride = 0;
};
struct DimShare {
  std::string name;
  std::int64_t index = 0;
  std::vector<ModeShare> modes;  // fastest first, as in the contract
  // A padded or shifted axis: the padded position the modes split, and how it follows.
  std::optional<std::int64_t> position;
  std::string position_rule;  // "(1 + 2 - 3) mod 96"
};

struct Explanation {
  enum class Holds { element, padding, gap };
  std::string contract;  // contract name
  bool asked_by_offset = true;
  std::int64_t offset = 0;
  Holds holds = Holds::gap;
  // element
  std::optional<ElementRef> element;
  std::string element_name;  // "V[7,8]"
  std::string field;
  std::int64_t field_offset = 0;
  std::string layout;  // Field::layout_string()
  std::vector<DimShare> dims;
  // Every other element at the same offset: fields declared may_alias share offsets, and each view
  // of one is named, not only the first.
  std::vector<std::string> also;
  // padding
  std::string padding;
  std::int64_t padding_index = 0, padding_size = 0;
  std::optional<double> padding_fill;
};

class Explainer {
 public:
  explicit Explainer(const Contract& contract) : contract_(contract) {}

  // Throws InputError (rule "offset") when offset is outside [0, row_size).
  Explanation at_offset(std::int64_t offset) const;
  Explanation at_element(ElementRef element) const;
  // "V[7,8]"; throws InputError (rule "element") for names the contract does not have.
  Explanation at_element(std::string_view text) const;

 private:
  const Contract& contract_;
  mutable std::optional<RowMap> rows_;  // built on the first offset query
};

std::string explanation_to_text(const Explanation& explanation);
Json explanation_to_json(const Explanation& explanation);

}  // namespace layoutcheck
