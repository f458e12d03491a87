#include "cases/rope/rope_layout.h"

#include <string>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/join.h"

namespace layoutcheck::rope {
namespace {

// "[H, P, 2]" as the case's messages write shapes.
std::string spaced_shape_text(const std::vector<std::int64_t>& shape) {
  return "[" + join_numbers(shape) + "]";
}

std::string field_names(const Contract& contract) {
  std::string text = "[";
  for (std::size_t i = 0; i < contract.fields.size(); ++i)
    text += (i ? ", " : "") + contract.fields[i].name;
  return text + "]";
}

std::string expected_dims(const std::string& field) {
  return field == "X" ? "(h: H, p: P, c: 2)" : "(p: P)";
}

// Points at the line that is wrong when the contract came from a file with one.
SourceLocation where_in(const Contract& contract, const SourceLocation& precise) {
  return precise.line > 0 ? precise : SourceLocation{contract.file};
}

[[noreturn]] void reject(const SourceLocation& where, std::string_view buffer,
                         const Contract& contract, const std::string& what, std::string fix) {
  throw InputError(Diagnostic{
      where, Severity::error, "case-layout",
      "rope buffer '" + std::string(buffer) + "': contract '" + contract.name + "' " + what,
      std::move(fix)});
}

void require_dtype(std::string_view buffer, const Contract& contract, DType expected) {
  if (contract.dtype != expected)
    reject(SourceLocation{contract.file}, buffer, contract,
           "has dtype " + std::string(dtype_name(contract.dtype)) + ", the case needs " +
               std::string(dtype_name(expected)),
           "declare dtype: " + std::string(dtype_name(expected)));
}

// A dim whose size the contract names as a symbol must have that size: catches swapped dims
// (X[p, h, c], which the shape check [_, _, 2] passes) wherever H != P.
void require_symbol(std::string_view buffer, const Contract& contract, const Field& field,
                    std::size_t dim, std::string_view symbol) {
  const std::optional<std::int64_t> value = contract.symbol(symbol);
  const std::int64_t size = field.dims[dim].size();
  if (value && *value != size)
    reject(where_in(contract, field.dims[dim].where), buffer, contract,
           "field " + field.name + " dim " + std::to_string(dim) + " ('" + field.dims[dim].name +
               "') has size " + std::to_string(size) + ", not " + std::string(symbol) + " = " +
               std::to_string(*value),
           "order the dims of " + field.name + " as " + expected_dims(field.name));
}

void validate_pairs(std::string_view buffer, const Contract& contract) {
  require_dtype(buffer, contract, DType::bf16);
  const std::string fix =
      "use a contract with one field X, dims (h: H, p: P, c: 2), e.g. rope/half_split." +
      std::string(buffer) + ".yaml";
  if (contract.fields.size() != 1 || contract.fields[0].name != "X")
    reject(SourceLocation{contract.file}, buffer, contract,
           "has fields " + field_names(contract) + ", the case needs exactly one, named X", fix);
  const Field& field = contract.fields[0];
  const std::vector<std::int64_t> shape = field.shape();
  if (shape.size() != 3 || shape[2] != 2)
    reject(where_in(contract, field.where), buffer, contract,
           "field X has shape " + spaced_shape_text(shape) + ", the case needs [H, P, 2]", fix);
  require_symbol(buffer, contract, field, 0, "H");
  require_symbol(buffer, contract, field, 1, "P");
}

void validate_table(const Contract& contract) {
  require_dtype("cos_sin", contract, DType::fp32);
  const std::string fix =
      "use a contract with fields COS[p: P] and SIN[p: P], e.g. rope/cos_sin.yaml";
  const Field* cos = contract.find_field("COS");
  const Field* sin = contract.find_field("SIN");
  if (!cos || !sin)
    reject(SourceLocation{contract.file}, "cos_sin", contract,
           std::string("has no field ") + (cos ? "SIN" : "COS"), fix);
  for (const Field* field : {cos, sin}) {
    if (field->dims.size() != 1)
      reject(where_in(contract, field->where), "cos_sin", contract,
             "field " + field->name + " has shape " + spaced_shape_text(field->shape()) +
                 ", the case needs [P]",
             fix);
    require_symbol("cos_sin", contract, *field, 0, "P");
  }
  if (cos->elements() != sin->elements())
    reject(where_in(contract, sin->where), "cos_sin", contract,
           "has " + std::to_string(cos->elements()) + " COS and " +
               std::to_string(sin->elements()) + " SIN entries; they must match",
           fix);
}

const Contract& contract_for(const CaseLayouts& layouts, std::string_view buffer) {
  const auto found = layouts.find(buffer);
  if (found == layouts.end())
    throw InputError(Diagnostic{SourceLocation{"<case rope>"}, Severity::error, "case-layout",
                                "no contract for rope buffer '" + std::string(buffer) + "'",
                                "give contracts for x, cos_sin and out"});
  validate_rope_layout(buffer, found->second);
  return found->second;
}

}  // namespace

void validate_rope_layout(std::string_view buffer, const Contract& contract) {
  if (buffer == "x" || buffer == "out") return validate_pairs(buffer, contract);
  if (buffer == "cos_sin") return validate_table(contract);
  throw InputError(Diagnostic{
      SourceLocation{contract.file}, Severity::error, "case-layout",
      "rope buffer '" + std::string(buffer) + "' takes no contract ('" + contract.name + "' given)",
      "give contracts only for x, cos_sin and out"});
}

RopeShape rope_shape_of(const CaseLayouts& layouts) {
  const Contract& x = contract_for(layouts, "x");
  const Contract& table = contract_for(layouts, "cos_sin");
  const Contract& out = contract_for(layouts, "out");
  const std::vector<std::int64_t> shape = x.fields[0].shape();
  const RopeShape result{shape[0], shape[1]};
  if (out.fields[0].shape() != shape)
    reject(SourceLocation{out.file}, "out", out,
           "has X of shape " + spaced_shape_text(out.fields[0].shape()) + " but x ('" + x.name +
               "') has " + spaced_shape_text(shape),
           "give x and out the same H and D (--set applies to both)");
  if (table.find_field("COS")->elements() != result.pairs)
    reject(SourceLocation{table.file}, "cos_sin", table,
           "has " + std::to_string(table.find_field("COS")->elements()) + " pairs but x ('" +
               x.name + "') has P = " + std::to_string(result.pairs),
           "give cos_sin and x the same D (--set applies to both)");
  return result;
}

std::vector<std::int64_t> pair_offsets(const Contract& contract) {
  return contract.fields[0].offsets();
}

}  // namespace layoutcheck::rope
