#include "layoutcheck/contract/contract.h"

#include <array>
#include <cctype>

namespace layoutcheck {
namespace {

constexpr std::array<std::pair<DType, std::string_view>, 9> kDTypeNames = {{
    {DType::bf16, "bf16"},
    {DType::fp16, "fp16"},
    {DType::fp32, "fp32"},
    {DType::fp64, "fp64"},
    {DType::i8, "i8"},
    {DType::u8, "u8"},
    {DType::i16, "i16"},
    {DType::i32, "i32"},
    {DType::i64, "i64"},
}};

[[noreturn]] void element_error(std::string message, std::string fix = {}) {
  throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "element",
                              std::move(message), std::move(fix)});
}

std::string shape_string(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text.append(i ? "," : "").append(std::to_string(shape[i]));
  return text + "]";
}

}  // namespace

std::string_view dtype_name(DType dtype) {
  for (const auto& [value, name] : kDTypeNames)
    if (value == dtype) return name;
  return "?";
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& [value, known] : kDTypeNames)
    if (known == name) return value;
  return std::nullopt;
}

int dtype_bytes(DType dtype) {
  switch (dtype) {
    case DType::i8:
    case DType::u8:
      return 1;
    case DType::bf16:
    case DType::fp16:
    case DType::i16:
      return 2;
    case DType::fp32:
    case DType::i32:
      return 4;
    case DType::fp64:
    case DType::i64:
      return 8;
  }
  return 1;
}

// ---- Dim ----

std::int64_t Dim::padded_size() const {
  std::int64_t size = 1;
  for (const Mode& mode : modes) size *= mode.size;
  return size;
}

std::string Dim::mode_name(std::size_t mode) const {
  if (!modes[mode].name.empty()) return modes[mode].name;
  return modes.size() == 1 ? name : name + "." + std::to_string(mode);
}

std::int64_t Dim::size() const { return padded_size() - pad_before - pad_after; }

std::int64_t Dim::position_of(std::int64_t index) const {
  if (!transformed()) return index;
  const std::int64_t padded = padded_size();
  const std::int64_t position = (index + pad_before - shift) % padded;
  return position < 0 ? position + padded : position;
}

std::optional<std::int64_t> Dim::index_at(std::int64_t position) const {
  const std::int64_t padded = padded_size();
  if (position < 0 || position >= padded) return std::nullopt;
  const std::int64_t unshifted = (position + shift) % padded - pad_before;
  if (unshifted < 0 || unshifted >= size()) return std::nullopt;
  return unshifted;
}

std::int64_t Dim::offset_of_position(std::int64_t position) const {
  std::int64_t offset = 0;
  for (const Mode& mode : modes) {  // fastest first
    offset += (position % mode.size) * mode.stride;
    position /= mode.size;
  }
  return offset;
}

// ---- Field ----

std::int64_t Field::elements() const {
  std::int64_t count = 1;
  for (const Dim& dim : dims) count *= dim.size();
  return count;
}

std::vector<std::int64_t> Field::shape() const {
  std::vector<std::int64_t> shape;
  for (const Dim& dim : dims) shape.push_back(dim.size());
  return shape;
}

std::vector<std::int64_t> Field::offsets() const {
  std::vector<std::int64_t> table(static_cast<std::size_t>(elements()));
  for_each_offset([&](std::int64_t linear, std::int64_t offset) {
    table[static_cast<std::size_t>(linear)] = offset;
  });
  return table;
}

std::vector<std::int64_t> Field::unravel(std::int64_t linear) const {
  std::vector<std::int64_t> index(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) {
    const std::int64_t size = dims[i].size();
    index[i] = linear % size;
    linear /= size;
  }
  return index;
}

std::int64_t Field::ravel(std::span<const std::int64_t> index) const {
  std::int64_t linear = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) linear = linear * dims[i].size() + index[i];
  return linear;
}

std::int64_t Field::offset_of(std::span<const std::int64_t> index) const {
  std::int64_t result = offset;
  for (std::size_t i = 0; i < dims.size(); ++i) result += dims[i].offset_of(index[i]);
  return result;
}

std::int64_t Field::offset_of_linear(std::int64_t linear) const {
  std::int64_t result = offset;
  for (std::size_t i = dims.size(); i-- > 0;) {
    const std::int64_t size = dims[i].size();
    result += dims[i].offset_of(linear % size);
    linear /= size;
  }
  return result;
}

std::string Field::layout_string() const {
  // A split dim prints as a nested tuple of its modes, fastest first; the whole field is a tuple
  // of dims, CuTe-style: "((3,16),128):((128,1024),1)".
  // A padded or shifted dim's shape carries its transform: "(6,16)[pad 2,3; roll -3]".
  const auto print = [&](auto&& value_of, bool transforms) {
    std::string text = "(";
    for (std::size_t d = 0; d < dims.size(); ++d) {
      if (d) text += ",";
      const Dim& dim = dims[d];
      const auto& modes = dim.modes;
      if (modes.size() == 1) {
        text += std::to_string(value_of(modes[0]));
      } else {
        text += "(";
        for (std::size_t m = 0; m < modes.size(); ++m)
          text.append(m ? "," : "").append(std::to_string(value_of(modes[m])));
        text += ")";
      }
      if (transforms && dim.transformed()) {
        std::string transform;
        if (dim.pad_before != 0 || dim.pad_after != 0)
          transform = "pad " + std::to_string(dim.pad_before) + "," + std::to_string(dim.pad_after);
        if (dim.shift != 0)
          transform += (transform.empty() ? "" : "; ") + std::string("roll -") +
                       std::to_string(dim.shift);
        text += "[" + transform + "]";
      }
    }
    return text + ")";
  };
  return print([](const Mode& mode) { return mode.size; }, true) + ":" +
         print([](const Mode& mode) { return mode.stride; }, false);
}

// ---- Contract ----

std::int64_t Contract::elements() const {
  std::int64_t count = 0;
  for (const Field& field : fields) count += field.elements();
  return count;
}

const Field* Contract::find_field(std::string_view wanted) const {
  for (const Field& field : fields)
    if (field.name == wanted) return &field;
  return nullptr;
}

std::optional<std::int64_t> Contract::symbol(std::string_view wanted) const {
  for (const Symbol& symbol : symbols)
    if (symbol.name == wanted) return symbol.value;
  return std::nullopt;
}

SymbolTable Contract::symbol_table() const {
  SymbolTable table;
  for (const Symbol& symbol : symbols) table.emplace(symbol.name, symbol.value);
  return table;
}

std::int64_t Contract::global_id(ElementRef element) const {
  std::int64_t id = element.linear;
  for (std::size_t f = 0; f < element.field && f < fields.size(); ++f) id += fields[f].elements();
  return id;
}

ElementRef Contract::element_from_global(std::int64_t global) const {
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::int64_t count = fields[f].elements();
    if (global < count) return {f, global};
    global -= count;
  }
  element_error("global element id past the last field (" + std::to_string(elements()) +
                " elements per row)");
}

std::int64_t Contract::offset_of(ElementRef element) const {
  return fields.at(element.field).offset_of_linear(element.linear);
}

std::string Contract::element_name(ElementRef element) const {
  const Field& field = fields.at(element.field);
  const std::vector<std::int64_t> index = field.unravel(element.linear);
  std::string text = field.name + "[";
  for (std::size_t i = 0; i < index.size(); ++i)
    text.append(i ? "," : "").append(std::to_string(index[i]));
  return text + "]";
}

ElementRef Contract::parse_element(std::string_view text) const {
  const auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  const std::string quoted = std::string("'").append(text).append("'");
  const std::string_view whole = trim(text);
  const std::size_t open = whole.find('[');
  if (open == std::string_view::npos || whole.back() != ']')
    element_error("element " + quoted + " is not of the form FIELD[i,j,...]", "e.g. V[7,8]");
  const std::string name(trim(whole.substr(0, open)));
  std::string field_names;
  for (const Field& f : fields) field_names += (field_names.empty() ? "" : ", ") + f.name;
  const Field* field = find_field(name);
  if (!field)
    element_error("no field '" + name + "' in " + this->name + " (fields: " + field_names + ")");

  std::vector<std::int64_t> index;
  std::string_view rest = whole.substr(open + 1, whole.size() - open - 2);
  while (!trim(rest).empty() || !index.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view part = trim(rest.substr(0, comma));
    std::int64_t value = 0;
    bool valid = !part.empty();
    for (char c : part)
      valid = valid && c >= '0' && c <= '9' && !__builtin_mul_overflow(value, 10, &value) &&
              !__builtin_add_overflow(value, c - '0', &value);
    if (!valid)
      element_error("index '" + std::string(part) + "' in element " + quoted +
                    " is not a non-negative integer");
    index.push_back(value);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }

  const std::vector<std::int64_t> shape = field->shape();
  std::string dim_names;
  for (const Dim& dim : field->dims) dim_names += (dim_names.empty() ? "" : ", ") + dim.name;
  if (index.size() != shape.size())
    element_error(field->name + " has " + std::to_string(shape.size()) + " dims [" + dim_names +
                      "] of sizes " + shape_string(shape) + "; element " + quoted + " gives " +
                      std::to_string(index.size()),
                  "give one index per dim");
  for (std::size_t i = 0; i < index.size(); ++i)
    if (index[i] >= shape[i])
      element_error("index " + std::to_string(index[i]) + " is out of range for dim '" +
                        field->dims[i].name + "' of " + field->name + " (size " +
                        std::to_string(shape[i]) + ")",
                    "indices are 0-based: use 0.." + std::to_string(shape[i] - 1));
  const std::size_t field_index = static_cast<std::size_t>(field - fields.data());
  return {field_index, field->ravel(index)};
}

std::int64_t row_stride(const Contract& contract) {
  if (!contract.rows.empty() && contract.rows.back().stride > 0) return contract.rows.back().stride;
  return contract.row_size;
}

}  // namespace layoutcheck
