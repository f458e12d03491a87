#include "layoutcheck/render/explain.h"

#include <cmath>

namespace layoutcheck {
namespace {

std::string dim_line(const DimShare& dim) {
  auto share = [](const ModeShare& mode) {
    return mode.name + "=" + std::to_string(mode.index) + " (stride " +
           std::to_string(mode.stride) + ")";
  };
  std::string text = dim.name + "=" + std::to_string(dim.index) + " ->";
  if (dim.position)
    text += " position " + std::to_string(*dim.position) + " = " + dim.position_rule + " ->";
  else if (dim.modes.size() == 1)
    return share(dim.modes[0]);
  for (std::size_t m = 0; m < dim.modes.size(); ++m) text += (m ? ", " : " ") + share(dim.modes[m]);
  return text;
}

}  // namespace

Explanation Explainer::at_offset(std::int64_t offset) const {
  if (offset < 0 || offset >= contract_.row_size)
    throw InputError(Diagnostic{SourceLocation{contract_.file}, Severity::error, "offset",
                                "offset " + std::to_string(offset) + " is outside the row of " +
                                    contract_.name + " (0 to " +
                                    std::to_string(contract_.row_size - 1) + ")",
                                "offsets are in elements from the start of one row"});
  if (!rows_) rows_ = RowMap::build(contract_);
  const std::uint32_t owner = rows_->at(offset);
  if (owner != RowMap::kEmpty && owner != RowMap::kPadding) {
    Explanation explanation = at_element(contract_.element_from_global(owner));
    explanation.asked_by_offset = true;
    return explanation;
  }
  Explanation explanation;
  explanation.contract = contract_.name;
  explanation.offset = offset;
  if (owner == RowMap::kPadding) {
    for (const Padding& region : contract_.padding)
      if (offset >= region.offset && offset < region.offset + region.size) {
        explanation.holds = Explanation::Holds::padding;
        explanation.padding = region.name;
        explanation.padding_index = offset - region.offset;
        explanation.padding_size = region.size;
        explanation.padding_fill = region.fill;
        break;
      }
  }
  return explanation;
}

Explanation Explainer::at_element(std::string_view text) const {
  return at_element(contract_.parse_element(text));
}

namespace {

// The elements other than `self` at `offset`, in fields that take part in a declared alias (only
// those may share offsets; the others cannot, lint proves it).
std::vector<std::string> others_at(const Contract& contract, std::int64_t offset, ElementRef self) {
  std::vector<bool> aliased(contract.fields.size(), false);
  for (std::size_t f = 0; f < contract.fields.size(); ++f)
    for (const std::string& name : contract.fields[f].may_alias) {
      aliased[f] = true;
      for (std::size_t g = 0; g < contract.fields.size(); ++g)
        if (contract.fields[g].name == name) aliased[g] = true;
    }
  std::vector<std::string> names;
  for (std::size_t f = 0; f < contract.fields.size(); ++f) {
    if (!aliased[f]) continue;
    contract.fields[f].for_each_offset([&](std::int64_t linear, std::int64_t at) {
      const ElementRef element{f, linear};
      if (at == offset && !(element == self)) names.push_back(contract.element_name(element));
    });
  }
  return names;
}

}  // namespace

Explanation Explainer::at_element(ElementRef element) const {
  const Field& field = contract_.fields.at(element.field);
  Explanation explanation;
  explanation.contract = contract_.name;
  explanation.asked_by_offset = false;
  explanation.holds = Explanation::Holds::element;
  explanation.element = element;
  explanation.element_name = contract_.element_name(element);
  explanation.offset = contract_.offset_of(element);
  explanation.field = field.name;
  explanation.field_offset = field.offset;
  explanation.layout = field.layout_string();
  const std::vector<std::int64_t> index = field.unravel(element.linear);
  for (std::size_t d = 0; d < field.dims.size(); ++d) {
    const Dim& dim = field.dims[d];
    DimShare share{dim.name, index[d], {}, std::nullopt, ""};
    std::int64_t rest = dim.position_of(index[d]);
    if (dim.transformed()) {
      share.position = rest;
      share.position_rule = "(" + std::to_string(index[d]) + " + " +
                            std::to_string(dim.pad_before) + " - " + std::to_string(dim.shift) +
                            ") mod " + std::to_string(dim.padded_size());
    }
    for (std::size_t m = 0; m < dim.modes.size(); ++m) {  // fastest mode first
      const Mode& mode = dim.modes[m];
      share.modes.push_back({dim.mode_name(m), rest % mode.size, mode.size, mode.stride});
      rest /= mode.size;
    }
    explanation.dims.push_back(std::move(share));
  }
  explanation.also = others_at(contract_, explanation.offset, element);
  return explanation;
}

std::string explanation_to_text(const Explanation& explanation) {
  const std::string offset = std::to_string(explanation.offset);
  std::string text = explanation.contract + ": ";
  switch (explanation.holds) {
    case Explanation::Holds::gap:
      return text + "offset " + offset + " holds no element (gap)\n";
    case Explanation::Holds::padding: {
      text += "offset " + offset + " is padding '" + explanation.padding + "' (element " +
              std::to_string(explanation.padding_index) + " of " +
              std::to_string(explanation.padding_size);
      if (const auto fill = explanation.padding_fill)  // "-1", not "-1.0", for whole numbers
        text += ", filled with " + (std::trunc(*fill) == *fill && std::abs(*fill) < 1e15
                                        ? std::to_string(static_cast<std::int64_t>(*fill))
                                        : Json(*fill).dump(0));
      return text + ")\n";
    }
    case Explanation::Holds::element:
      break;
  }
  text += explanation.asked_by_offset
              ? "offset " + offset + " holds " + explanation.element_name + "\n"
              : explanation.element_name + " is at offset " + offset + "\n";
  for (const std::string& other : explanation.also)
    text += "  also " + other + " (the fields are declared may_alias)\n";
  text += "  field " + explanation.field + ": " + explanation.layout + " at offset " +
          std::to_string(explanation.field_offset) + "\n";
  std::string sum = std::to_string(explanation.field_offset);
  for (const DimShare& dim : explanation.dims) {
    text += "  " + dim_line(dim) + "\n";
    for (const ModeShare& mode : dim.modes)
      sum += " + " + std::to_string(mode.index) + "*" + std::to_string(mode.stride);
  }
  return text + "  offset = " + sum + " = " + offset + "\n";
}

Json explanation_to_json(const Explanation& explanation) {
  static const char* const holds[] = {"element", "padding", "gap"};
  Json json = Json::object()
                  .set("contract", explanation.contract)
                  .set("query", explanation.asked_by_offset ? "offset" : "element")
                  .set("offset", explanation.offset)
                  .set("holds", holds[static_cast<int>(explanation.holds)]);
  if (explanation.holds == Explanation::Holds::padding)
    json.set("padding",
             Json::object()
                 .set("name", explanation.padding)
                 .set("index", explanation.padding_index)
                 .set("size", explanation.padding_size)
                 .set("fill", explanation.padding_fill ? Json(*explanation.padding_fill) : Json()));
  if (explanation.holds != Explanation::Holds::element) return json;
  Json index = Json::array();
  Json dims = Json::array();
  for (const DimShare& dim : explanation.dims) {
    index.push(dim.index);
    Json modes = Json::array();
    for (const ModeShare& mode : dim.modes)
      modes.push(Json::object()
                     .set("name", mode.name)
                     .set("index", mode.index)
                     .set("size", mode.size)
                     .set("stride", mode.stride));
    Json entry = Json::object().set("name", dim.name).set("index", dim.index);
    if (dim.position) entry.set("position", *dim.position);
    dims.push(entry.set("modes", modes));
  }
  if (!explanation.also.empty()) {  // only where fields alias: the common case stays as it was
    Json also = Json::strings(explanation.also);
    json.set("also", std::move(also));
  }
  return json.set("element", explanation.element_name)
      .set("field", explanation.field)
      .set("index", index)
      .set("field_offset", explanation.field_offset)
      .set("layout", explanation.layout)
      .set("dims", dims);
}

}  // namespace layoutcheck
