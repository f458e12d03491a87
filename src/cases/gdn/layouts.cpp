#include "cases/gdn/layouts.h"

#include <algorithm>
#include <string>
#include <vector>

#include "layoutcheck/contract/join.h"

namespace layoutcheck {
namespace {

struct ExpectedField {
  const char* name;
  std::vector<std::int64_t> shape;
};

std::vector<ExpectedField> expected_fields(GdnBuffer buffer, const GdnShape& shape) {
  switch (buffer) {
    case GdnBuffer::qkvz:
      return {{"Q", {shape.H, shape.K}},
              {"K", {shape.H, shape.K}},
              {"V", {shape.HV, shape.V}},
              {"Z", {shape.HV, shape.V}}};
    case GdnBuffer::ba:
      return {{"B", {shape.HV}}, {"A", {shape.HV}}};
    case GdnBuffer::state:
      return {{"S", {shape.HV, shape.K, shape.V}}};
  }
  return {};
}

[[noreturn]] void layout_error(const Contract& contract, const std::string& message,
                               const std::string& fix) {
  const std::string who = contract.name.empty() ? std::string("contract") : contract.name;
  throw InputError(
      Diagnostic{contract.where.file.empty() ? SourceLocation{contract.file} : contract.where,
                 Severity::error, "gdn-layout", who + ": " + message, fix});
}

}  // namespace

std::string_view gdn_buffer_name(GdnBuffer buffer) {
  switch (buffer) {
    case GdnBuffer::qkvz:
      return "qkvz";
    case GdnBuffer::ba:
      return "ba";
    case GdnBuffer::state:
      return "state";
  }
  return "?";
}

GdnBuffer gdn_buffer_from_name(std::string_view name) {
  if (name == "qkvz") return GdnBuffer::qkvz;
  if (name == "ba") return GdnBuffer::ba;
  if (name == "state" || name == "ssm_state") return GdnBuffer::state;
  throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                              "unknown GDN buffer '" + std::string(name) + "'",
                              "use qkvz, ba or state"});
}

const Contract& layout_of(const GdnLayouts& layouts, GdnBuffer buffer) {
  switch (buffer) {
    case GdnBuffer::qkvz:
      return layouts.qkvz;
    case GdnBuffer::ba:
      return layouts.ba;
    case GdnBuffer::state:
      return layouts.state;
  }
  return layouts.qkvz;
}

Contract& layout_of(GdnLayouts& layouts, GdnBuffer buffer) {
  return const_cast<Contract&>(layout_of(static_cast<const GdnLayouts&>(layouts), buffer));
}

GdnShape gdn_shape_from_symbols(const Contract& contract, GdnShape defaults) {
  GdnShape shape = defaults;
  if (auto value = contract.symbol("H")) shape.H = *value;
  if (auto value = contract.symbol("HV")) shape.HV = *value;
  if (auto value = contract.symbol("K")) shape.K = *value;
  if (auto value = contract.symbol("V")) shape.V = *value;
  if (auto value = contract.symbol("W")) shape.W = *value;
  return shape;
}

void validate_gdn_layout(const Contract& contract, GdnBuffer buffer, const GdnShape& shape) {
  const DType dtype = buffer == GdnBuffer::state ? DType::fp32 : DType::bf16;
  if (contract.dtype != dtype)
    layout_error(contract,
                 "the " + std::string(gdn_buffer_name(buffer)) + " buffer holds " +
                     std::string(dtype_name(dtype)) + ", the contract says " +
                     std::string(dtype_name(contract.dtype)),
                 "use a " + std::string(gdn_buffer_name(buffer)) + " contract");
  for (const ExpectedField& expected : expected_fields(buffer, shape)) {
    const Field* field = contract.find_field(expected.name);
    if (!field)
      layout_error(contract,
                   "has no field " + std::string(expected.name) + " (a GDN " +
                       std::string(gdn_buffer_name(buffer)) + " contract needs it)",
                   "use a " + std::string(gdn_buffer_name(buffer)) + " contract");
    if (field->shape() != expected.shape)
      layout_error(contract,
                   "field " + field->name + " is " + shape_text(field->shape()) +
                       ", the GDN shape H=" + std::to_string(shape.H) +
                       " HV=" + std::to_string(shape.HV) + " K=" + std::to_string(shape.K) +
                       " V=" + std::to_string(shape.V) + " needs " + shape_text(expected.shape),
                   "give every contract the same sizes (--set)");
  }
  // Contracts loaded from files met the cap already; the built-in ones are sized by --set alone,
  // and the reference and probes tabulate every offset of a row.
  if (contract.row_size > kDefaultElementCap || contract.elements() > kDefaultElementCap)
    layout_error(contract,
                 "holds " + std::to_string(std::max(contract.row_size, contract.elements())) +
                     " elements a row, more than the " + std::to_string(kDefaultElementCap) +
                     " the GDN reference and probes tabulate",
                 "--set smaller sizes: the layout question does not depend on them");
  if (row_stride(contract) < contract.row_size)
    layout_error(contract,
                 "rows overlap: row stride " + std::to_string(row_stride(contract)) +
                     " is below the row size " + std::to_string(contract.row_size),
                 "declare a row stride of at least the row size");
}

void validate_gdn_layouts(const GdnLayouts& layouts, const GdnShape& shape) {
  if (!shape.valid())
    throw InputError(
        Diagnostic{SourceLocation{}, Severity::error, "gdn-shape",
                   "invalid GDN shape H=" + std::to_string(shape.H) +
                       " HV=" + std::to_string(shape.HV) + " K=" + std::to_string(shape.K) +
                       " V=" + std::to_string(shape.V) + " W=" + std::to_string(shape.W),
                   "sizes must be positive, W >= 2 and HV a multiple of H"});
  validate_gdn_layout(layouts.qkvz, GdnBuffer::qkvz, shape);
  validate_gdn_layout(layouts.ba, GdnBuffer::ba, shape);
  validate_gdn_layout(layouts.state, GdnBuffer::state, shape);
}

}  // namespace layoutcheck
