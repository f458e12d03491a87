#include "cases/gdn/standard_layouts.h"

#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>

namespace layoutcheck {
namespace {

Mode mode(std::string name, std::int64_t size, std::int64_t stride) {
  Mode result;
  result.name = std::move(name);
  result.size = size;
  result.stride = stride;
  return result;
}

Dim dim(std::string name, std::initializer_list<Mode> modes_fastest_first) {
  Dim result;
  result.name = std::move(name);
  result.modes = modes_fastest_first;
  return result;
}

Dim dim(const std::string& name, std::int64_t size, std::int64_t stride) {
  return dim(name, {mode(name, size, stride)});
}

Field field(std::string name, std::int64_t offset, std::initializer_list<Dim> dims) {
  Field result;
  result.name = std::move(name);
  result.offset = offset;
  result.offset_text = std::to_string(offset);
  result.dims = dims;
  return result;
}

Contract contract(std::string name, std::string buffer, DType dtype, const GdnShape& shape,
                  std::string row_name, std::int64_t row_size) {
  Contract result;
  result.name = std::move(name);
  result.buffer = std::move(buffer);
  result.dtype = dtype;
  for (auto [symbol, value] : {std::pair<const char*, std::int64_t>{"H", shape.H},
                               {"HV", shape.HV},
                               {"K", shape.K},
                               {"V", shape.V},
                               {"G", shape.G()}}) {
    Symbol entry;
    entry.name = symbol;
    entry.value = value;
    result.symbols.push_back(entry);
  }
  result.row_size = row_size;
  result.row_size_declared = true;
  result.rows.push_back(RowDim{std::move(row_name), row_size, {}});
  return result;
}

}  // namespace

Contract flat_qkvz_contract(const GdnShape& shape) {
  const auto [H, HV, K, V] = std::tuple{shape.H, shape.HV, shape.K, shape.V};
  Contract result =
      contract("qwen3_5.qkvz", "qkvz", DType::bf16, shape, "token", 2 * H * K + 2 * HV * V);
  result.fields = {field("Q", 0, {dim("h", H, K), dim("k", K, 1)}),
                   field("K", H * K, {dim("h", H, K), dim("k", K, 1)}),
                   field("V", 2 * H * K, {dim("hv", HV, V), dim("v", V, 1)}),
                   field("Z", 2 * H * K + HV * V, {dim("hv", HV, V), dim("v", V, 1)})};
  return result;
}

Contract interleaved_qkvz_contract(const GdnShape& shape) {
  const auto [H, K, V, G] = std::tuple{shape.H, shape.K, shape.V, shape.G()};
  const std::int64_t group = 2 * K + 2 * G * V;
  Contract result = contract("qwen3_next.qkvz", "qkvz", DType::bf16, shape, "token", H * group);
  // Explicit captures: clang before 16 (hipcc, libFuzzer) cannot capture structured bindings.
  auto value_head = [G = G, V = V, H = H, group] {
    return dim("hv", {mode("r", G, V), mode("h", H, group)});
  };
  result.fields = {field("Q", 0, {dim("h", H, group), dim("k", K, 1)}),
                   field("K", K, {dim("h", H, group), dim("k", K, 1)}),
                   field("V", 2 * K, {value_head(), dim("v", V, 1)}),
                   field("Z", 2 * K + G * V, {value_head(), dim("v", V, 1)})};
  return result;
}

Contract flat_ba_contract(const GdnShape& shape) {
  Contract result = contract("qwen3_5.ba", "ba", DType::bf16, shape, "token", 2 * shape.HV);
  result.fields = {field("B", 0, {dim("hv", shape.HV, 1)}),
                   field("A", shape.HV, {dim("hv", shape.HV, 1)})};
  return result;
}

Contract interleaved_ba_contract(const GdnShape& shape) {
  const auto [H, G] = std::pair{shape.H, shape.G()};
  Contract result = contract("qwen3_next.ba", "ba", DType::bf16, shape, "token", 2 * shape.HV);
  auto value_head = [G = G, H = H] { return dim("hv", {mode("r", G, 1), mode("h", H, 2 * G)}); };
  result.fields = {field("B", 0, {value_head()}), field("A", G, {value_head()})};
  return result;
}

Contract state_contract(const GdnShape& shape, StateOrder order) {
  const auto [HV, K, V] = std::tuple{shape.HV, shape.K, shape.V};
  const bool hkv = order == StateOrder::hkv;
  Contract result = contract(hkv ? "gdn.state.hkv" : "gdn.state.hvk", "ssm_state", DType::fp32,
                             shape, "sequence", HV * K * V);
  result.fields = {
      field("S", 0, {dim("hv", HV, K * V), dim("k", K, hkv ? V : 1), dim("v", V, hkv ? 1 : K)})};
  return result;
}

GdnLayouts flat_gdn_layouts(const GdnShape& shape, StateOrder order) {
  return {flat_qkvz_contract(shape), flat_ba_contract(shape), state_contract(shape, order)};
}

GdnLayouts interleaved_gdn_layouts(const GdnShape& shape, StateOrder order) {
  return {interleaved_qkvz_contract(shape), interleaved_ba_contract(shape),
          state_contract(shape, order)};
}

}  // namespace layoutcheck
