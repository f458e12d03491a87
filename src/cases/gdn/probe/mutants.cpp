#include "cases/gdn/probe/mutants.h"

#include <stdexcept>
#include <utility>

#include "cases/gdn/reference_runner.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck {
namespace {

Field& field(Contract& contract, const char* name) {
  for (Field& f : contract.fields)
    if (f.name == name) return f;
  throw std::invalid_argument("mutant: contract " + contract.name + " has no field " + name);
}

// Where `reader` reads from: `source`'s offsets and strides under its own name.
void read_from(Contract& contract, const char* reader, const char* source) {
  Field& target = field(contract, reader);
  const Field& from = field(contract, source);
  target.offset = from.offset;
  target.dims = from.dims;
}

void swap_fields(Contract& contract, const char* a, const char* b) {
  const Field first = field(contract, a);
  read_from(contract, a, b);
  field(contract, b).offset = first.offset;
  field(contract, b).dims = first.dims;
}

}  // namespace

MutantInfo describe_mutant(MutantKind kind) {
  switch (kind) {
    case MutantKind::q_k_swapped:
      return {"q_k_swapped", "reads Q from K's segment and K from Q's", GdnBuffer::qkvz};
    case MutantKind::b_a_swapped:
      return {"b_a_swapped", "reads B from A's segment and A from B's", GdnBuffer::ba};
    case MutantKind::key_head_modulo:
      return {"key_head_modulo", "value head hv uses key head hv % H instead of hv / G",
              GdnBuffer::qkvz};
    case MutantKind::v_head_shifted:
      return {"v_head_shifted", "reads V[hv] one head's stride too far, where V[hv+1] is",
              GdnBuffer::qkvz};
    case MutantKind::z_from_v:
      return {"z_from_v", "reads Z from V's segment", GdnBuffer::qkvz};
    case MutantKind::state_transposed:
      return {"state_transposed", "reads and writes the state in the other order than it claims",
              GdnBuffer::state};
    case MutantKind::row_stride_short:
      return {"row_stride_short", "reads qkvz batch rows one element too close together",
              GdnBuffer::qkvz};
    case MutantKind::l2norm_skipped:
      return {"l2norm_skipped", "uses q and k without their l2 normalisation", GdnBuffer::qkvz};
  }
  throw std::invalid_argument("unknown mutant");
}

std::vector<MutantKind> all_mutant_kinds() {
  return {MutantKind::q_k_swapped,      MutantKind::b_a_swapped,   MutantKind::key_head_modulo,
          MutantKind::v_head_shifted,   MutantKind::z_from_v,      MutantKind::state_transposed,
          MutantKind::row_stride_short, MutantKind::l2norm_skipped};
}

Mutant make_mutant(MutantKind kind, const GdnShape& shape, const GdnLayouts& claimed) {
  const MutantInfo info = describe_mutant(kind);
  GdnLayouts actual = claimed;
  GdnFaults faults;
  switch (kind) {
    case MutantKind::q_k_swapped:
      swap_fields(actual.qkvz, "Q", "K");
      break;
    case MutantKind::b_a_swapped:
      swap_fields(actual.ba, "B", "A");
      break;
    case MutantKind::key_head_modulo:
      faults.key_head = GdnFaults::KeyHead::modulo;
      break;
    case MutantKind::v_head_shifted: {
      Field& v = field(actual.qkvz, "V");
      const std::int64_t one = v.offset_of(std::vector<std::int64_t>{1, 0});
      v.offset = one;  // element [0,0] now where [1,0] was: every head one head too far
      break;
    }
    case MutantKind::z_from_v:
      read_from(actual.qkvz, "Z", "V");
      break;
    case MutantKind::state_transposed: {
      if (shape.K != shape.V)
        throw std::invalid_argument("the state_transposed mutant needs K == V");
      const bool claims_hkv = field(actual.state, "S").dims[2].modes[0].stride == 1;
      actual.state = state_contract(shape, claims_hkv ? StateOrder::hvk : StateOrder::hkv);
      break;
    }
    case MutantKind::row_stride_short:
      faults.qkvz_row_stride_error = -1;
      break;
    case MutantKind::l2norm_skipped:
      faults.head.skip_l2norm = true;
      break;
  }
  Mutant mutant{kind, info.name, info.description, info.buffer, nullptr};
  mutant.kernel = std::make_unique<ReferenceRunner>("mutant " + mutant.name,
                                                    GdnReference(shape, std::move(actual), faults));
  return mutant;
}

}  // namespace layoutcheck
