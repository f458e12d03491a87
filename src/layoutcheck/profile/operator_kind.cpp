#include "layoutcheck/profile/operator_kind.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace layoutcheck {
namespace {

bool contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

// The operator's own name without its namespace: "aten::native_layer_norm" -> "native_layer_norm".
std::string_view bare(std::string_view name) {
  const auto colons = name.rfind("::");
  return colons == std::string_view::npos ? name : name.substr(colons + 2);
}

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

constexpr std::array<std::string_view, 12> kUnary = {
    "layer_norm", "native_layer_norm", "gelu", "gelu_",    "_softmax",     "softmax",
    "silu",       "dropout",           "relu", "rms_norm", "_log_softmax", "tanh"};
constexpr std::array<std::string_view, 8> kBinary = {"add", "add_", "mul",   "mul_",
                                                     "sub", "div",  "where", "masked_fill"};
constexpr std::array<std::string_view, 9> kOtherMemory = {
    "index_select", "cat",   "roll",      "constant_pad_nd", "pad",
    "gather",       "index", "embedding", "scatter"};
constexpr std::array<std::string_view, 9> kCopies = {
    "copy_", "to", "_to_copy", "contiguous", "clone", "Memcpy", "Memset", "memcpy", "memset"};
constexpr std::array<std::string_view, 5> kAllocations = {"empty", "empty_strided", "empty_like",
                                                          "resize_", "zeros"};

// In double: a profile's shapes are text, and their product may be past 64 bits.
double elements(const std::vector<std::int64_t>& shape) {
  double count = 1;
  for (std::int64_t size : shape) count *= static_cast<double>(size);
  return count;
}

}  // namespace

OperatorKind operator_kind(std::string_view name) {
  const std::string_view op = bare(name);
  if (contains(name, "Synchronize") || op == "item" || op == "_local_scalar_dense")
    return OperatorKind::synchronisation;
  if (contains(name, "Malloc") || contains(name, "alloc") || one_of(op, kAllocations))
    return OperatorKind::allocation;
  if (one_of(op, kCopies) || contains(name, "Memcpy") || contains(name, "Memset"))
    return OperatorKind::copy;
  if (one_of(op, kUnary) || one_of(op, kBinary) || one_of(op, kOtherMemory))
    return OperatorKind::memory_bound;
  // A name with no namespace and no kernel-like spelling is a user region (record_function).
  if (!contains(name, "::") && !contains(name, "kernel") && !contains(name, "gemm") &&
      !contains(name, "Kernel"))
    return OperatorKind::region;
  return OperatorKind::compute;
}

std::string_view operator_kind_name(OperatorKind kind) {
  switch (kind) {
    case OperatorKind::compute:
      return "compute";
    case OperatorKind::memory_bound:
      return "memory-bound";
    case OperatorKind::copy:
      return "copy";
    case OperatorKind::allocation:
      return "allocation";
    case OperatorKind::synchronisation:
      return "synchronisation";
    case OperatorKind::region:
      return "region";
  }
  return "?";
}

namespace {

std::optional<double> bytes_by_operator(std::string_view name,
                                        const std::vector<std::vector<std::int64_t>>& shapes,
                                        int element_bytes) {
  if (shapes.empty() || shapes.front().empty()) return std::nullopt;
  const std::string_view op = bare(name);
  const double bytes = element_bytes;
  const double first = elements(shapes.front());
  if (one_of(op, kUnary)) return 2 * first * bytes;
  if (one_of(op, kBinary)) {
    const double second =
        shapes.size() > 1 && !shapes[1].empty() ? elements(shapes[1]) : 0;
    return (2 * first + second) * bytes;
  }
  if (op == "index_select" && shapes.size() >= 3 && shapes[2].size() == 1) {
    const std::int64_t picked = shapes[2][0];
    const std::vector<std::int64_t>& x = shapes.front();
    std::size_t dim = 0;
    for (std::size_t d = 1; d < x.size(); ++d)
      if (std::llabs(x[d] - picked) < std::llabs(x[dim] - picked)) dim = d;
    const double out = first / static_cast<double>(std::max<std::int64_t>(x[dim], 1)) *
                       static_cast<double>(picked);
    return 2 * out * bytes + static_cast<double>(picked) * 8;  // the int64 index
  }
  if (one_of(op, kOtherMemory)) return 2 * first * bytes;
  return std::nullopt;
}

}  // namespace

std::optional<double> estimated_bytes(std::string_view name,
                                      const std::vector<std::vector<std::int64_t>>& shapes,
                                      int element_bytes) {
  const std::optional<double> bytes = bytes_by_operator(name, shapes, element_bytes);
  if (bytes && !std::isfinite(*bytes)) return std::nullopt;  // shapes past what a double holds
  return bytes;
}

std::optional<std::vector<std::vector<std::int64_t>>> parse_shapes(std::string_view text) {
  std::vector<std::vector<std::int64_t>> shapes;
  std::size_t i = 0;
  const auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip();
  if (i >= text.size() || text[i] != '[') return std::nullopt;
  ++i;
  while (true) {
    skip();
    if (i < text.size() && text[i] == ']') return shapes;
    if (i >= text.size() || text[i] != '[') return std::nullopt;
    ++i;
    std::vector<std::int64_t> shape;
    while (true) {
      skip();
      if (i < text.size() && text[i] == ']') {
        ++i;
        break;
      }
      std::size_t end = i;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
      if (end == i || end - i > 15) return std::nullopt;
      shape.push_back(std::stoll(std::string(text.substr(i, end - i))));
      i = end;
      skip();
      if (i < text.size() && text[i] == ',') ++i;
    }
    shapes.push_back(std::move(shape));
    skip();
    if (i < text.size() && text[i] == ',') ++i;
  }
}

}  // namespace layoutcheck
