// The contract model: what every element of one buffer row means.
//
// A contract describes one buffer: a dtype, its row dimension(s) (tokens, batch) and the logical
// fields packed into one row. A field has logical dims; each dim maps its index to a physical
// offset through one or more modes (CuTe's hierarchical shape:stride). A dim split into several
// modes expresses interleaving: value head hv = h*G + r becomes the modes (r: G, h: H), fastest
// first, each with its own stride.
//
// Example, Qwen3-Next qkvz (interleaved per key head) at H=16, HV=48, K=V=128, G=3:
//   V  dims (hv: (r:3, h:16), v:128)  printed as  V:((3,16),128):((128,1024),1) @ 256
//   i.e. offset(V[hv, v]) = 256 + (hv % 3)*128 + (hv / 3)*1024 + v
//
// Offsets are in elements of the dtype, relative to the start of a row. Everything here is
// resolved: symbols already evaluated to integers. Parsing lives in parse.h, checks in check/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/expression.h"

namespace layoutcheck {

enum class DType { bf16, fp16, fp32, fp64, i8, u8, i16, i32, i64 };

std::string_view dtype_name(DType dtype);  // "bf16"
std::optional<DType> dtype_from_name(std::string_view name);
int dtype_bytes(DType dtype);

// One (size, stride) pair of a dim.
struct Mode {
  std::string name;  // e.g. "r", "h"; may be empty for an unsplit dim
  std::int64_t size = 1;
  std::int64_t stride = 0;
  // The expressions as written ("G", "2*K + 2*G*V"); codegen emits them symbolically.
  std::string size_text;
  std::string stride_text;
  SourceLocation where;
};

// One logical dim of a field: its index i decomposes over modes fastest first
// (i = m0 + size0 * (m1 + size1 * m2 ...)), and offset contribution = sum(m_j * stride_j).
//
// A grid axis may be padded and shifted before the modes split it (a window partition: Swin,
// Pangu-Weather): pad_before slots that hold no element come first and pad_after slots last, and
// the padded axis is rolled cyclically as torch.roll(x, -shift) does, so index i sits at padded
// position (i + pad_before - shift) mod padded_size(), which the modes decompose. The slots of no
// element are padding of the row (the contract's padding gains them, filled with zero).
struct Dim {
  std::string name;
  std::vector<Mode> modes;  // fastest first; at least one; over the padded axis
  std::int64_t pad_before = 0, pad_after = 0, shift = 0;
  std::string pad_before_text, pad_after_text, shift_text;  // as written
  SourceLocation where;

  std::int64_t size() const;         // logical: the padded size less the padding
  std::int64_t padded_size() const;  // the modes' product
  bool transformed() const { return pad_before != 0 || pad_after != 0 || shift != 0; }
  // Written with pad_before, pad_after or shift, whatever their values at these symbols: what
  // generated code must keep (a shift of SHIFT * 6 is 0 only at the defaults).
  bool declares_transform() const {
    return transformed() || !pad_before_text.empty() || !pad_after_text.empty() ||
           !shift_text.empty();
  }
  // The padded position of logical index i, and of the element (if any) at a padded position.
  std::int64_t position_of(std::int64_t index) const;
  std::optional<std::int64_t> index_at(std::int64_t position) const;
  std::int64_t offset_of_position(std::int64_t position) const;
  std::int64_t offset_of(std::int64_t index) const {
    return offset_of_position(position_of(index));
  }
  // What a reviewer calls mode m: its own name, else the dim's ("h"; "hv.1" for an unnamed mode
  // of a split dim).
  std::string mode_name(std::size_t mode) const;
};

struct Field {
  std::string name;
  std::int64_t offset = 0;             // offset of element [0, 0, ...]
  std::string offset_text;             // as written, e.g. "2*H*K"; "0" when absent
  std::vector<Dim> dims;               // logical dims, outermost first (row-major logical order)
  std::vector<std::string> may_alias;  // fields this one may share offsets with
  std::string description;
  SourceLocation where;

  std::int64_t elements() const;
  std::vector<std::int64_t> shape() const;

  // Logical linear index (row-major over dims) <-> multi-index.
  std::vector<std::int64_t> unravel(std::int64_t linear) const;
  std::int64_t ravel(std::span<const std::int64_t> index) const;

  std::int64_t offset_of(std::span<const std::int64_t> index) const;
  std::int64_t offset_of_linear(std::int64_t linear) const;

  // Calls visit(linear, offset) for every element in logical row-major order, without
  // per-element division: the fast path for 10^7-element rows.
  template <class Visit>
  void for_each_offset(Visit&& visit) const;
  // Every element's offset, by logical linear index: a table for inner loops that would
  // otherwise decompose indices.
  std::vector<std::int64_t> offsets() const;

  // CuTe-style print of the mapping, e.g. "((3,16),128):((128,1024),1)"
  std::string layout_string() const;
};

// A declared region of a row that holds no logical element.
struct Padding {
  std::string name;
  std::int64_t offset = 0;
  std::int64_t size = 0;
  std::optional<double> fill;  // sentinel value the producer writes there, if any
  SourceLocation where;
  bool of_padded_grid = false;  // added for a field's padded dims, not declared under 'padding:'
};

// The contract's buffer is a gather of a token grid (the index protocol, gather_map.h): `field`
// holds the grid's tokens, `token` names its dim within one token (contiguous, stride 1); the
// field's other dims index the grid row-major.
struct GatherDecl {
  std::string field;
  std::string token;
  SourceLocation where;
};

struct RowDim {
  std::string name;         // "token", "batch"
  std::int64_t stride = 0;  // elements between consecutive rows along this dim
  SourceLocation where;
};

struct Symbol {
  std::string name;
  std::int64_t value = 0;
  std::optional<Expression> derived_from;  // set for derived symbols such as G = HV / H
  bool overridden = false;                 // set from the command line
  std::string description;
  SourceLocation where;
};

// Identifies one logical element of a contract: field index and logical linear index.
struct ElementRef {
  std::size_t field = 0;
  std::int64_t linear = 0;
  friend bool operator==(const ElementRef&, const ElementRef&) = default;
};

struct Contract {
  std::string file;    // path it was loaded from ("" for contracts built in code)
  std::string name;    // e.g. "qwen3_5.qkvz"
  std::string buffer;  // e.g. "qkvz": contracts are diffed per buffer
  std::string description;
  DType dtype = DType::bf16;
  std::vector<Symbol> symbols;
  std::vector<RowDim> rows;   // outermost first; may be empty for a single row
  std::int64_t row_size = 0;  // physical elements one row spans (declared or derived)
  bool row_size_declared = false;
  SourceLocation row_size_where;  // the row_size key when declared, else the document
  std::vector<Field> fields;
  std::vector<Padding> padding;
  std::optional<GatherDecl> gather;
  SourceLocation where;  // the document

  std::int64_t elements() const;  // logical elements per row, all fields
  const Field* find_field(std::string_view name) const;
  std::optional<std::int64_t> symbol(std::string_view name) const;
  SymbolTable symbol_table() const;

  // Global element id: fields laid end to end in declaration order.
  std::int64_t global_id(ElementRef element) const;
  ElementRef element_from_global(std::int64_t global) const;
  std::int64_t offset_of(ElementRef element) const;

  // "V[7,8]"
  std::string element_name(ElementRef element) const;
  // Parses "V[7,8]" (also "V[7, 8]"); throws InputError (rule "element") with a helpful message.
  ElementRef parse_element(std::string_view text) const;
};

// Elements between consecutive rows of a buffer: the innermost declared row dim's stride, else
// the row size (rows packed).
std::int64_t row_stride(const Contract& contract);

// Cap on logical elements and row size: a hostile file must not exhaust memory. A user may raise
// it (--max-elements) up to kMaxElementCap, past which lint's table, numbering a row's elements in
// 32 bits with two values reserved, cannot hold a row.
inline constexpr std::int64_t kDefaultElementCap = std::int64_t{1} << 26;
inline constexpr std::int64_t kMaxElementCap = (std::int64_t{1} << 32) - 3;

// ---- template implementation ----

template <class Visit>
void Field::for_each_offset(Visit&& visit) const {
  // A padded or shifted dim does not step by a stride: each dim's offsets are tabled, and an
  // odometer over the dims adds them up.
  if (std::any_of(dims.begin(), dims.end(), [](const Dim& dim) { return dim.transformed(); })) {
    std::vector<std::vector<std::int64_t>> table(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
      if (dims[d].size() <= 0) return;
      table[d].resize(static_cast<std::size_t>(dims[d].size()));
      for (std::int64_t i = 0; i < dims[d].size(); ++i)
        table[d][static_cast<std::size_t>(i)] = dims[d].offset_of(i);
    }
    std::vector<std::size_t> counter(dims.size(), 0);
    const std::vector<std::int64_t>& inner = table.back();
    std::int64_t linear = 0;
    while (true) {
      std::int64_t start = offset;
      for (std::size_t d = 0; d + 1 < dims.size(); ++d) start += table[d][counter[d]];
      for (std::int64_t at : inner) visit(linear++, start + at);
      std::size_t level = dims.size() - 1;
      while (true) {
        if (level == 0) return;
        --level;
        if (++counter[level] < table[level].size()) break;
        counter[level] = 0;
      }
    }
  }
  // Flatten modes into loop order, outermost loop first: dims outermost first, and within a
  // dim its slowest mode first.
  std::vector<const Mode*> loops;
  for (const Dim& dim : dims)
    for (auto it = dim.modes.rbegin(); it != dim.modes.rend(); ++it) loops.push_back(&*it);
  if (loops.empty()) {
    visit(std::int64_t{0}, offset);
    return;
  }
  for (const Mode* mode : loops)
    if (mode->size <= 0) return;
  const std::size_t depth = loops.size();
  // start[l] = offset + sum over outer loops j < l of counter[j] * stride[j]
  std::vector<std::int64_t> counter(depth, 0);
  std::vector<std::int64_t> start(depth, offset);
  const Mode& inner = *loops.back();
  std::int64_t linear = 0;
  while (true) {
    const std::int64_t row_start = start[depth - 1];
    for (std::int64_t i = 0; i < inner.size; ++i) visit(linear++, row_start + i * inner.stride);
    std::size_t level = depth - 1;  // advance the odometer over the outer loops
    while (true) {
      if (level == 0) return;
      --level;
      if (++counter[level] < loops[level]->size) break;
      counter[level] = 0;
    }
    for (std::size_t l = level + 1; l < depth; ++l)
      start[l] = start[l - 1] + counter[l - 1] * loops[l - 1]->stride;
  }
}

}  // namespace layoutcheck
