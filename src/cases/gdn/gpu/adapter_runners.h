// The GPU adapters as pure data movement for the bit-plane probes (probe/data_movement.h): batch
// rows laid out by the producer's contract in, batch rows laid out by the consumer's out. Output
// offsets an adapter does not write read as zero (a constant), as in the CPU model.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layoutcheck/contract/contract.h"
#include "cases/gdn/shape.h"
#include "layoutcheck/gpu/buffer.h"
#include "layoutcheck/gpu/generated_adapter.h"
#include "layoutcheck/gpu/stream.h"
#include "layoutcheck/probe/data_movement.h"

namespace layoutcheck::gpu {

class GpuAdapterRunner : public DataMovementRunner {
 public:
  std::string name() const override { return name_; }
  std::int64_t input_size() const override { return input_size_; }
  std::int64_t output_size() const override { return output_size_; }
  std::vector<bf16_bits> run(const std::vector<bf16_bits>& input) override;

 protected:
  // @pre producer and consumer are bf16 contracts of one buffer; batch >= 1.
  GpuAdapterRunner(std::string name, const Contract& producer, const Contract& consumer,
                   std::int64_t batch);
  // Converts input_ into output_ on stream.
  virtual void enqueue(hipStream_t stream) = 0;

  std::int64_t batch_, producer_stride_, consumer_stride_;
  DeviceBuffer<bf16_bits> input_, output_;

 private:
  std::string name_;
  std::int64_t input_size_, output_size_;
  Stream stream_;
};

// The hand-written flat -> interleaved adapters (adapters/gdn/gdn_flat_to_interleaved.hip).
std::unique_ptr<GpuAdapterRunner> make_hand_written_qkvz_adapter(const GdnShape& shape,
                                                                 std::int64_t batch);
std::unique_ptr<GpuAdapterRunner> make_hand_written_ba_adapter(const GdnShape& shape,
                                                               std::int64_t batch);
// An adapter generated from the two contracts and compiled at run time.
std::unique_ptr<GpuAdapterRunner> make_generated_adapter(const Contract& producer,
                                                         const Contract& consumer,
                                                         std::int64_t batch);

}  // namespace layoutcheck::gpu
