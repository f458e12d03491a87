// Bit-plane probes for pure data movement (adapters, gathers): each output element is a copy of
// one input element, or a constant. Every input element holds one bit of its own index, encoded as
// one of two bf16 values; ceil(log2 N) runs spell out, for every output element, the index it was
// copied from. Two more runs (every input one value, then the other) tell a copy from a constant.
//
//   CpuAdapter adapter(flat_qkvz_contract(shape), interleaved_qkvz_contract(shape), batch);
//   AdapterVerdict verdict = check_adapter(adapter, flat, interleaved, batch);
//   verdict.reads.misread == 0: the adapter is exactly the permutation between the contracts
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "layoutcheck/diff/read_map.h"
#include "layoutcheck/platform/bf16.h"

namespace layoutcheck {

class DataMovementRunner {
 public:
  virtual ~DataMovementRunner() = default;
  virtual std::string name() const = 0;
  virtual std::int64_t input_size() const = 0;   // elements
  virtual std::int64_t output_size() const = 0;  // elements
  // @pre input.size() == input_size(); returns output_size() elements.
  virtual std::vector<bf16_bits> run(const std::vector<bf16_bits>& input) = 0;
};

// The two values a bit is written as: far apart, exact in bf16, neither zero nor a NaN.
inline constexpr bf16_bits kBitZero = 0x3f80;  // 1.0
inline constexpr bf16_bits kBitOne = 0xc000;   // -2.0

struct SourceMap {
  static constexpr std::int64_t kConstant = -1;  // the same value whatever the input holds
  static constexpr std::int64_t kNotACopy = -2;  // a value no input element held
  std::vector<std::int64_t> source;  // per output element: the input index it copies, or a marker
  std::int64_t runs = 0;             // runner calls made
};

// @post throws std::runtime_error when the runner returns the wrong number of elements.
SourceMap probe_data_movement(DataMovementRunner& runner);

// What an adapter from producer's layout to consumer's layout did, batch rows of each.
struct AdapterVerdict {
  SourceMap sources;
  MisreadReport reads;            // per consumer element, the producer offset it was copied from
  std::int64_t crossed_rows = 0;  // output elements copied from another batch row
  std::int64_t constants = 0;     // consumer elements holding a constant
  std::int64_t not_copies = 0;    // consumer elements holding a computed value
  bool exact() const { return reads.misread == 0 && reads.unresolved == 0 && crossed_rows == 0; }
};

// @pre runner.input_size() == batch rows of the producer (row_stride apart), output likewise for
//      the consumer; the contracts describe the same fields.
AdapterVerdict check_adapter(DataMovementRunner& runner, const Contract& producer,
                             const Contract& consumer, std::int64_t batch);

// The CPU model of a correct adapter: every consumer element copied from where the producer keeps
// it; offsets of the output no element occupies are zero.
class CpuAdapter : public DataMovementRunner {
 public:
  CpuAdapter(Contract producer, Contract consumer, std::int64_t batch);
  std::string name() const override;
  std::int64_t input_size() const override;
  std::int64_t output_size() const override;
  std::vector<bf16_bits> run(const std::vector<bf16_bits>& input) override;

  // Per output element, the input index it copies (-1: zero), for tests that break it.
  std::vector<std::int64_t>& gather() { return gather_; }

 private:
  Contract producer_, consumer_;
  std::int64_t batch_;
  std::vector<std::int64_t> gather_;
};

}  // namespace layoutcheck
