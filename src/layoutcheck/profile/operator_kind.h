// What an operator of a profile is, by its name: the fixed-shape, memory-bound neighbours of the
// GEMMs (the candidates for specialisation), compute, or the costs that are not a kernel's speed
// (copies, allocations, synchronisations); and, for memory-bound operators with known input
// shapes, the bytes one call moves at least.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "layoutcheck/profile/profile.h"

namespace layoutcheck {

OperatorKind operator_kind(std::string_view name);
std::string_view operator_kind_name(OperatorKind kind);  // "memory-bound", ...

// Reads and writes one call makes at least, elements of element_bytes: unary operators (norms,
// activations, softmax) read their input and write one like it; binary ones read two and write
// one; index_select writes the selected rows (along the dim whose size is nearest the index
// count) and reads them and the index. nullopt without shapes or for other operators.
std::optional<double> estimated_bytes(std::string_view name,
                                      const std::vector<std::vector<std::int64_t>>& shapes,
                                      int element_bytes);

// "[[1, 131040, 192], [], [192]]" -> {{1, 131040, 192}, {}, {192}}; nullopt when not that form.
std::optional<std::vector<std::vector<std::int64_t>>> parse_shapes(std::string_view text);

}  // namespace layoutcheck
